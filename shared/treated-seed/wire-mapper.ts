import { z } from 'zod';
import { TreatedSeed, treatedSeedOf, StoredTreatedSeedRequest, storedRequestOf } from './treated-seed';
import {
  treatedSeedListQuerySchema,
  TreatedSeedRecordView,
  TreatedSeedRequest,
  treatedSeedRequestSchema,
} from './wire';

/**
 * The treated seed on the wire: the one module of the kind, beside wire*.ts, that reads the API's schemas. Today the
 * wire request has the fields of the request a pointer stores (treated-seed.ts), so the two share one mapping; the
 * assignments below are what ties them, and the day either changes the compiler refuses them.
 */
export const treatedSeedWire = { request: treatedSeedRequestSchema };

/** The API's answer for a treated seed: the stored record and whether SIEX would take it now. */
export type TreatedSeedAnswer = TreatedSeedRecordView;

export type TreatedSeedListFilters = Omit<z.infer<typeof treatedSeedListQuerySchema>, 'agrifarmId'>;

const asStored = (body: TreatedSeedRequest): StoredTreatedSeedRequest => body;
const asWire = (stored: StoredTreatedSeedRequest): TreatedSeedRequest => stored;

/** Any body as the domain value: the parse makes it the typed wire form whatever the caller. */
export function treatedSeedFromWire(body: unknown): TreatedSeed {
  return treatedSeedOf(asStored(treatedSeedRequestSchema.parse(body)));
}

/** Back to the wire, for an amendment's merge patch and a record's history. */
export function treatedSeedToWire(s: TreatedSeed): TreatedSeedRequest {
  return asWire(storedRequestOf(s));
}
