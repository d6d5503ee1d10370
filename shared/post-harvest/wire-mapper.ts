import { z } from 'zod';
import { PostHarvestTreatment, postHarvestOf, StoredPostHarvestRequest, storedRequestOf } from './post-harvest';
import {
  postHarvestListQuerySchema,
  PostHarvestRecordView,
  PostHarvestRequest,
  postHarvestRequestSchema,
} from './wire';

/**
 * The post-harvest treatment on the wire: the one module of the kind, beside wire*.ts, that reads the API's schemas.
 * Today the wire request has the fields of the request a pointer stores (post-harvest.ts), so the two share one
 * mapping; the assignments below are what ties them, and the day either changes the compiler refuses them.
 */
export const postHarvestWire = { request: postHarvestRequestSchema };

/** The API's answer for a post-harvest treatment: the stored record and whether SIEX would take it now. */
export type PostHarvestAnswer = PostHarvestRecordView;

export type PostHarvestListFilters = Omit<z.infer<typeof postHarvestListQuerySchema>, 'agrifarmId'>;

const asStored = (body: PostHarvestRequest): StoredPostHarvestRequest => body;
const asWire = (stored: StoredPostHarvestRequest): PostHarvestRequest => stored;

/** Any body as the domain value: the parse makes it the typed wire form whatever the caller. */
export function postHarvestFromWire(body: unknown): PostHarvestTreatment {
  return postHarvestOf(asStored(postHarvestRequestSchema.parse(body)));
}

/** Back to the wire, for an amendment's merge patch and a record's history. */
export function postHarvestToWire(t: PostHarvestTreatment): PostHarvestRequest {
  return asWire(storedRequestOf(t));
}
