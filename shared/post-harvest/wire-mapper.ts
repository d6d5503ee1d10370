import { z } from 'zod';
import { sameShapeWire } from '../records/same-shape-wire';
import { postHarvestOf, storedRequestOf } from './post-harvest';
import { postHarvestListQuerySchema, PostHarvestRecordView, postHarvestRequestSchema } from './wire';

/**
 * The post-harvest treatment on the wire: the one module of the kind, beside wire*.ts, that reads the API's schemas.
 *
 * Today the wire request has exactly the fields the kind keeps of a request, so one mapping serves both
 * (shared/records/same-shape-wire.ts), tied both ways at compile time.
 */
export const postHarvestWire = { request: postHarvestRequestSchema };

/** The API's answer for a post-harvest treatment: the stored record and whether SIEX would take it now. */
export type PostHarvestAnswer = PostHarvestRecordView;
export type PostHarvestListFilters = Omit<z.infer<typeof postHarvestListQuerySchema>, 'agrifarmId'>;

export const { fromWire: postHarvestFromWire, toWire: postHarvestToWire } = sameShapeWire(
  postHarvestRequestSchema,
  postHarvestOf,
  storedRequestOf,
);
