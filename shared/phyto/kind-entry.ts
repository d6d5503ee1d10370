/* eslint-disable @typescript-eslint/no-require-imports, @typescript-eslint/no-unsafe-assignment -- the loaders this
   entry exists for: each module required on its first use (require() answers any), typed as that module */
import type { KindEntry } from '../records/kind-entry';
import { PHYTO_ERRORS } from './errors';
import type * as Kind from './phyto-kind';
import type * as Reads from './kind-reads';
import type * as Catalogues from './catalogues';
import type * as Http from './wire-http';
import type * as SafeHarvest from './wire-safe-harvest';

/**
 * The phytosanitary treatment (`AgriPhytosanitary`, CUE `TratamFito`, RD 1311/2012) as the registry lists it
 * (shared/app/record-kinds.ts): its addresses, and its modules loaded on first use.
 */
export const phytoEntry = {
  urnType: 'AgriPhytosanitary',
  table: 'phyto',
  collection: 'v1/entities/agriphytosanitarys',
  stem: 'Phytosanitary',
  label: {
    a: 'a phytosanitary application',
    one: 'phytosanitary application',
    many: 'phytosanitary applications',
    tag: 'phytosanitary treatment',
  },
  errorCodes: PHYTO_ERRORS,
  load: {
    kind: () => {
      const { phytoKind }: typeof Kind = require('./phyto-kind');
      return phytoKind;
    },
    reads: () => {
      const { phytoReads }: typeof Reads = require('./kind-reads');
      return phytoReads;
    },
    http: () => {
      const { phytoHttp }: typeof Http = require('./wire-http');
      return phytoHttp;
    },
    catalogues: () => {
      const { PHYTO_CATALOGUES }: typeof Catalogues = require('./catalogues');
      return { files: PHYTO_CATALOGUES };
    },
  },
  views: [
    {
      // The treatments' pre-harvest intervals, as the harvest holds they publish state them.
      operationId: 'safeHarvest',
      route: 'v1/siex/safeharvest',
      shows: 'when each may be harvested',
      load: () => {
        const { safeHarvestView }: typeof SafeHarvest = require('./wire-safe-harvest');
        return safeHarvestView;
      },
    },
  ],
} as const satisfies KindEntry;
