import { Harvest } from './harvest';
import { HarvestRecordView, HarvestRequest, harvestRequestSchema } from './wire';
import { harvestOf, RecordFields, recordFieldsOf, StoredHarvest } from './stored-record';

/**
 * The harvest on the wire: the one module of the kind, beside wire*.ts, that reads the API's schemas. Today the wire
 * request has the fields a record keeps of its request (stored-record.ts), so the two share one mapping; the
 * assignments below are what ties them, and the day either changes the compiler refuses them.
 */
export const harvestWire = { request: harvestRequestSchema };

/** The API's answer for a harvest: the stored record and whether SIEX would take it now. */
export type HarvestAnswer = HarvestRecordView;

const asFields = (r: HarvestRequest): RecordFields => r;
const asWire = (fields: RecordFields): HarvestRequest => fields;

/** Any body as the domain value: the parse makes it the typed wire form (with zod's defaults) whatever the caller. */
export function harvestFromWire(body: unknown): Harvest {
  return harvestOf(asFields(harvestRequestSchema.parse(body)));
}

/** Back to the wire, for an amendment's merge patch and a record's history. */
export function harvestToWire(h: Harvest): HarvestRequest {
  return asWire(recordFieldsOf(h));
}

/** A stored record as the API answers it, with what an export would refuse of it now (`blockers`). */
export function harvestAnswerOf(record: StoredHarvest, blockers: HarvestAnswer['exportBlockers']): HarvestAnswer {
  return { ...record, exportable: blockers.length === 0, exportBlockers: blockers };
}
