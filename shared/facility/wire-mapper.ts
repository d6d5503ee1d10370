import { z } from 'zod';
import { sameShapeWire } from '../records/same-shape-wire';
import { facilityOf, storedRequestOf } from './facility';
import { facilityListQuerySchema, FacilityRecordView, facilityRequestSchema } from './wire';

/**
 * The store treatment on the wire: the one module of the kind, beside wire*.ts, that reads the API's schemas.
 *
 * Today the wire request has exactly the fields the kind keeps of a request, so one mapping serves both
 * (shared/records/same-shape-wire.ts), tied both ways at compile time.
 */
export const facilityWire = { request: facilityRequestSchema };

/** The API's answer for a store treatment: the stored record and whether SIEX would take it now. */
export type FacilityAnswer = FacilityRecordView;
export type FacilityListFilters = Omit<z.infer<typeof facilityListQuerySchema>, 'agrifarmId'>;

export const { fromWire: facilityFromWire, toWire: facilityToWire } = sameShapeWire(
  facilityRequestSchema,
  facilityOf,
  storedRequestOf,
);
