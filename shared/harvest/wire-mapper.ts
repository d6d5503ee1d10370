import { sameShapeWire, withExportability } from '../records/same-shape-wire';
import { HarvestRecordView, harvestRequestSchema } from './wire';
import { harvestOf, recordFieldsOf, StoredHarvest } from './stored-record';

/**
 * The harvest on the wire: the one module of the kind, beside wire*.ts, that reads the API's schemas. Today the wire
 * request has the fields a record keeps of its request (stored-record.ts), so the two share one mapping; the
 * assignments below are what ties them, and the day either changes the compiler refuses them.
 *
 * Today the wire request has exactly the fields the kind keeps of a request, so one mapping serves both
 * (shared/records/same-shape-wire.ts), tied both ways at compile time.
 */
export const harvestWire = { request: harvestRequestSchema };

/** The API's answer for a harvest: the stored record and whether SIEX would take it now. */
export type HarvestAnswer = HarvestRecordView;

export const { fromWire: harvestFromWire, toWire: harvestToWire } = sameShapeWire(
  harvestRequestSchema,
  harvestOf,
  recordFieldsOf,
);

/** A stored record as the API answers it, with what an export would refuse of it now (`blockers`). */
export const harvestAnswerOf = (record: StoredHarvest, blockers: HarvestAnswer['exportBlockers']): HarvestAnswer =>
  withExportability(record, blockers);
