/* eslint-disable @typescript-eslint/no-require-imports, @typescript-eslint/no-unsafe-assignment -- the loaders this
   entry exists for: each module required on its first use (require() answers any), typed as that module */
import type { KindEntry } from '../records/kind-entry';
import type * as Kind from './facility-kind';
import type * as Reads from './kind-reads';
import type * as Catalogues from './catalogues';
import type * as Http from './wire-http';

/**
 * The store and premises treatment (`AgriFacilityTreatment`, CUE `TratamientosEdifInstalaciones`) as the registry
 * lists it (shared/app/record-kinds.ts): its addresses, and its modules loaded on first use.
 */
export const facilityEntry = {
  urnType: 'AgriFacilityTreatment',
  table: 'facilitytreatment',
  collection: 'v1/entities/agrifacilitytreatments',
  stem: 'FacilityTreatment',
  label: { a: 'a store treatment', one: 'store treatment', many: 'store treatments' },
  load: {
    kind: () => {
      const { facilityKind }: typeof Kind = require('./facility-kind');
      return facilityKind;
    },
    reads: () => {
      const { facilityReads }: typeof Reads = require('./kind-reads');
      return facilityReads;
    },
    http: () => {
      const { facilityHttp }: typeof Http = require('./wire-http');
      return facilityHttp;
    },
    catalogues: () => {
      const { FACILITY_CATALOGUES }: typeof Catalogues = require('./catalogues');
      return { files: FACILITY_CATALOGUES };
    },
  },
} as const satisfies KindEntry;
