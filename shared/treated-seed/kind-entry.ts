/* eslint-disable @typescript-eslint/no-require-imports, @typescript-eslint/no-unsafe-assignment -- the loaders this
   entry exists for: each module required on its first use (require() answers any), typed as that module */
import type { KindEntry } from '../records/kind-entry';
import { TREATED_SEED_ERRORS } from './errors';
import type * as Kind from './treated-seed-kind';
import type * as Reads from './kind-reads';
import type * as Catalogues from './catalogues';
import type * as Http from './wire-http';

/**
 * The use of treated seed (`AgriTreatedSeed`, CUE `UsoSemillaTratada`) as the registry lists it
 * (shared/app/record-kinds.ts): its addresses, and its modules loaded on first use.
 */
export const treatedSeedEntry = {
  urnType: 'AgriTreatedSeed',
  table: 'treatedseed',
  collection: 'v1/entities/agritreatedseeds',
  stem: 'TreatedSeed',
  label: { a: 'a use of treated seed', one: 'treated seed', many: 'uses of treated seed' },
  errorCodes: TREATED_SEED_ERRORS,
  load: {
    kind: () => {
      const { treatedSeedKind }: typeof Kind = require('./treated-seed-kind');
      return treatedSeedKind;
    },
    reads: () => {
      const { treatedSeedReads }: typeof Reads = require('./kind-reads');
      return treatedSeedReads;
    },
    http: () => {
      const { treatedSeedHttp }: typeof Http = require('./wire-http');
      return treatedSeedHttp;
    },
    catalogues: () => {
      const { TREATED_SEED_CATALOGUES }: typeof Catalogues = require('./catalogues');
      return { files: TREATED_SEED_CATALOGUES };
    },
  },
} as const satisfies KindEntry;
