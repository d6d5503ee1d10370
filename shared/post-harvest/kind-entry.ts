/* eslint-disable @typescript-eslint/no-require-imports, @typescript-eslint/no-unsafe-assignment -- the loaders this
   entry exists for: each module required on its first use (require() answers any), typed as that module */
import type { KindEntry } from '../records/kind-entry';
import type * as Kind from './post-harvest-kind';
import type * as Reads from './kind-reads';
import type * as Http from './wire-http';

/**
 * The post-harvest treatment (`AgriPostHarvestTreatment`, CUE `TratamientosPostCosecha`) as the registry lists it
 * (shared/app/record-kinds.ts): its addresses, and its modules loaded on first use.
 */
export const postHarvestEntry = {
  urnType: 'AgriPostHarvestTreatment',
  table: 'postharvest',
  collection: 'v1/entities/agripostharvesttreatments',
  stem: 'PostHarvestTreatment',
  label: { a: 'a post-harvest treatment', one: 'post-harvest treatment', many: 'post-harvest treatments' },
  load: {
    kind: () => {
      const { postHarvestKind }: typeof Kind = require('./post-harvest-kind');
      return postHarvestKind;
    },
    reads: () => {
      const { postHarvestReads }: typeof Reads = require('./kind-reads');
      return postHarvestReads;
    },
    http: () => {
      const { postHarvestHttp }: typeof Http = require('./wire-http');
      return postHarvestHttp;
    },
  },
} as const satisfies KindEntry;
