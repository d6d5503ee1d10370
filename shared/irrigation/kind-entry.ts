/* eslint-disable @typescript-eslint/no-require-imports, @typescript-eslint/no-unsafe-assignment -- the loaders this
   entry exists for: each module required on its first use (require() answers any), typed as that module */
import type { KindEntry } from '../records/kind-entry';
import { IRRIGATION_ERRORS } from './errors';
import type * as Kind from './irrigation-kind';
import type * as Reads from './kind-reads';
import type * as Catalogues from './catalogues';
import type * as Http from './wire-http';

/**
 * The irrigation (`AgriIrrigation`, CUE `Riego`, RD 1051/2022 art. 5) as the registry lists it
 * (shared/app/record-kinds.ts): its addresses, and its modules loaded on first use.
 */
export const irrigationEntry = {
  urnType: 'AgriIrrigation',
  table: 'irrigation',
  collection: 'v1/entities/agriirrigations',
  stem: 'Irrigation',
  label: { a: 'an irrigation', one: 'irrigation', many: 'irrigations', tag: 'irrigation' },
  errorCodes: IRRIGATION_ERRORS,
  load: {
    kind: () => {
      const { irrigationKind }: typeof Kind = require('./irrigation-kind');
      return irrigationKind;
    },
    reads: () => {
      const { irrigationReads }: typeof Reads = require('./kind-reads');
      return irrigationReads;
    },
    http: () => {
      const { irrigationHttp }: typeof Http = require('./wire-http');
      return irrigationHttp;
    },
    catalogues: () => {
      const { IRRIGATION_CATALOGUES }: typeof Catalogues = require('./catalogues');
      return { files: IRRIGATION_CATALOGUES };
    },
  },
} as const satisfies KindEntry;
