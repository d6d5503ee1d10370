import { z } from 'zod';
import { FacilityTreatment, facilityOf, StoredFacilityRequest, storedRequestOf } from './facility';
import { facilityListQuerySchema, FacilityRecordView, FacilityRequest, facilityRequestSchema } from './wire';

/**
 * The store treatment on the wire: the one module of the kind, beside wire*.ts, that reads the API's schemas.
 * Today the wire request has the fields of the request a pointer stores (facility.ts), so the two share one
 * mapping; the assignments below are what ties them, and the day either changes the compiler refuses them.
 */
export const facilityWire = { request: facilityRequestSchema };

/** The API's answer for a store treatment: the stored record and whether SIEX would take it now. */
export type FacilityAnswer = FacilityRecordView;

export type FacilityListFilters = Omit<z.infer<typeof facilityListQuerySchema>, 'agrifarmId'>;

const asStored = (body: FacilityRequest): StoredFacilityRequest => body;
const asWire = (stored: StoredFacilityRequest): FacilityRequest => stored;

/** Any body as the domain value: the parse makes it the typed wire form whatever the caller. */
export function facilityFromWire(body: unknown): FacilityTreatment {
  return facilityOf(asStored(facilityRequestSchema.parse(body)));
}

/** Back to the wire, for an amendment's merge patch and a record's history. */
export function facilityToWire(t: FacilityTreatment): FacilityRequest {
  return asWire(storedRequestOf(t));
}
