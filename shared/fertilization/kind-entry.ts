/* eslint-disable @typescript-eslint/no-require-imports -- the loaders this entry exists for: each module on first use */
import type { KindEntry } from '../records/kind-entry';

/**
 * The fertilization (`AgriFertilize`, CUE `Fertilizacion`, RD 1051/2022) as the registry lists it
 * (shared/app/record-kinds.ts): its addresses, and its modules loaded on first use.
 */
export const fertilizationEntry = {
  urnType: 'AgriFertilize',
  table: 'fertilization',
  collection: 'v1/entities/agrifertilizes',
  stem: 'Fertilization',
  label: { a: 'a fertilization', one: 'fertilization', many: 'fertilizations' },
  load: {
    kind: () => (require('./fertilization-kind') as typeof import('./fertilization-kind')).fertilizationKind,
    reads: () => (require('./kind-reads') as typeof import('./kind-reads')).fertilizationReads,
    http: () => (require('./wire-http') as typeof import('./wire-http')).fertilizationHttp,
  },
} as const satisfies KindEntry;
