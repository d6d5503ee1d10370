/* eslint-disable @typescript-eslint/no-require-imports -- the loaders this entry exists for: each module on first use */
import type { KindEntry } from '../records/kind-entry';

/**
 * The phytosanitary treatment (`AgriPhytosanitary`, CUE `TratamFito`, RD 1311/2012) as the registry lists it
 * (shared/app/record-kinds.ts): its addresses, and its modules loaded on first use.
 */
export const phytoEntry = {
  urnType: 'AgriPhytosanitary',
  table: 'phyto',
  collection: 'v1/entities/agriphytosanitarys',
  stem: 'Phytosanitary',
  label: { a: 'a phytosanitary application', one: 'phytosanitary application', many: 'phytosanitary applications' },
  load: {
    kind: () => (require('./phyto-kind') as typeof import('./phyto-kind')).phytoKind,
    reads: () => (require('./kind-reads') as typeof import('./kind-reads')).phytoReads,
    http: () => (require('./wire-http') as typeof import('./wire-http')).phytoHttp,
  },
} as const satisfies KindEntry;
