/* eslint-disable @typescript-eslint/no-require-imports, @typescript-eslint/no-unsafe-assignment -- the loaders this
   entry exists for: each module required on its first use (require() answers any), typed as that module */
import type { KindEntry } from '../records/kind-entry';
import { HARVEST_ERRORS } from './errors';
import type * as Kind from './harvest-kind';
import type * as Reads from './kind-reads';
import type * as Catalogues from './catalogues';
import type * as Http from './wire-http';

/**
 * The harvest (`AgriHarvest`, CUE `Cosecha`) as the registry lists it (shared/app/record-kinds.ts): its addresses, and
 * its modules loaded on first use.
 */
export const harvestEntry = {
  urnType: 'AgriHarvest',
  table: 'harvest',
  collection: 'v1/entities/agriharvests',
  stem: 'Harvest',
  label: { a: 'a harvest', one: 'harvest', many: 'harvests', tag: 'harvest' },
  errorCodes: HARVEST_ERRORS,
  load: {
    kind: () => {
      const { harvestKind }: typeof Kind = require('./harvest-kind');
      return harvestKind;
    },
    reads: () => {
      const { harvestReads }: typeof Reads = require('./kind-reads');
      return harvestReads;
    },
    http: () => {
      const { harvestHttp }: typeof Http = require('./wire-http');
      return harvestHttp;
    },
    catalogues: () => {
      const { HARVEST_CATALOGUES }: typeof Catalogues = require('./catalogues');
      return { files: HARVEST_CATALOGUES };
    },
  },
} as const satisfies KindEntry;
