import { z } from 'zod';
import { sameShapeWire } from '../records/same-shape-wire';
import { treatedSeedOf, storedRequestOf } from './treated-seed';
import { treatedSeedListQuerySchema, TreatedSeedRecordView, treatedSeedRequestSchema } from './wire';

/**
 * The treated seed on the wire: the one module of the kind, beside wire*.ts, that reads the API's schemas. Today the
 * wire request has the fields of the request a pointer stores (treated-seed.ts), so the two share one mapping; the
 * assignments below are what ties them, and the day either changes the compiler refuses them.
 *
 * Today the wire request has exactly the fields the kind keeps of a request, so one mapping serves both
 * (shared/records/same-shape-wire.ts), tied both ways at compile time.
 */
export const treatedSeedWire = { request: treatedSeedRequestSchema };

/** The API's answer for a treated seed: the stored record and whether SIEX would take it now. */
export type TreatedSeedAnswer = TreatedSeedRecordView;
export type TreatedSeedListFilters = Omit<z.infer<typeof treatedSeedListQuerySchema>, 'agrifarmId'>;

export const { fromWire: treatedSeedFromWire, toWire: treatedSeedToWire } = sameShapeWire(
  treatedSeedRequestSchema,
  treatedSeedOf,
  storedRequestOf,
);
