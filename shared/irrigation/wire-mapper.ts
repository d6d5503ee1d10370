import { Irrigation } from './irrigation';
import { IrrigationRecordView, IrrigationRequest, irrigationRequestSchema } from './wire';
import { irrigationOf as fromFields, RecordFields, recordFieldsOf, StoredIrrigation } from './stored-record';

/**
 * The irrigation on the wire: with wire*.ts, the one module of the kind that reads the API's schemas. A request maps
 * to the domain value and back (an amendment's merge patch applies to the wire form, and a record's history lists the
 * wire fields that changed); a stored record maps to the view the API answers.
 *
 * Today the wire request has the fields a record keeps of its request (stored-record.ts), so the two share one
 * mapping; the functions below assign one type to the other, and the day either changes the compiler refuses them and
 * this module maps the wire on its own.
 */
export const irrigationWire = { request: irrigationRequestSchema };

/** The API's answer for an irrigation: the stored record and whether SIEX would take it now. */
export type IrrigationAnswer = IrrigationRecordView;

const asFields = (r: IrrigationRequest): RecordFields => r;
const asWire = (fields: RecordFields): IrrigationRequest => fields;

/**
 * Any body as the domain value: the port hands it over as `unknown`, and the parse is what makes it the typed wire form
 * (with zod's defaults) whatever the caller, where a cast would trust it blindly.
 */
export function irrigationFromWire(body: unknown): Irrigation {
  return fromFields(asFields(irrigationRequestSchema.parse(body)));
}

/** Back to the wire, for an amendment's merge patch and a record's history: what `irrigationFromWire` reads. */
export function requestOf(i: Irrigation): IrrigationRequest {
  return asWire(recordFieldsOf(i));
}

/** A stored record as the API answers it, with what an export would refuse of it now (`blockers`). */
export function irrigationView(
  record: StoredIrrigation,
  blockers: IrrigationAnswer['exportBlockers'],
): IrrigationAnswer {
  return { ...record, exportable: blockers.length === 0, exportBlockers: blockers };
}
