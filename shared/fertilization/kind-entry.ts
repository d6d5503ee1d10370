/* eslint-disable @typescript-eslint/no-require-imports, @typescript-eslint/no-unsafe-assignment -- the loaders this
   entry exists for: each module required on its first use (require() answers any), typed as that module */
import type { KindEntry } from '../records/kind-entry';
import { FERTILIZATION_ERRORS } from './errors';
import type * as Kind from './fertilization-kind';
import type * as Reads from './kind-reads';
import type * as Catalogues from './catalogues';
import type * as Http from './wire-http';

/**
 * The fertilization (`AgriFertilize`, CUE `Fertilizacion`, RD 1051/2022) as the registry lists it
 * (shared/app/record-kinds.ts): its addresses, and its modules loaded on first use.
 */
export const fertilizationEntry = {
  urnType: 'AgriFertilize',
  table: 'fertilization',
  collection: 'v1/entities/agrifertilizes',
  stem: 'Fertilization',
  label: { a: 'a fertilization', one: 'fertilization', many: 'fertilizations', tag: 'fertilization' },
  errorCodes: FERTILIZATION_ERRORS,
  load: {
    kind: () => {
      const { fertilizationKind }: typeof Kind = require('./fertilization-kind');
      return fertilizationKind;
    },
    reads: () => {
      const { fertilizationReads }: typeof Reads = require('./kind-reads');
      return fertilizationReads;
    },
    http: () => {
      const { fertilizationHttp }: typeof Http = require('./wire-http');
      return fertilizationHttp;
    },
    catalogues: () => {
      const { FERTILIZATION_CATALOGUES, FERTILIZATION_CATALOGUE_DETAILS }: typeof Catalogues = require('./catalogues');
      return { files: FERTILIZATION_CATALOGUES, details: FERTILIZATION_CATALOGUE_DETAILS };
    },
  },
} as const satisfies KindEntry;
