import { sameShapeWire, withExportability } from '../records/same-shape-wire';
import { IrrigationRecordView, irrigationRequestSchema } from './wire';
import { irrigationOf, recordFieldsOf, StoredIrrigation } from './stored-record';

/**
 * The irrigation on the wire: with wire*.ts, the one module of the kind that reads the API's schemas. A request maps
 * to the domain value and back (an amendment's merge patch applies to the wire form, and a record's history lists the
 * wire fields that changed); a stored record maps to the view the API answers.
 *
 * Today the wire request has exactly the fields the kind keeps of a request, so one mapping serves both
 * (shared/records/same-shape-wire.ts), tied both ways at compile time.
 */
export const irrigationWire = { request: irrigationRequestSchema };

/** The API's answer for an irrigation: the stored record and whether SIEX would take it now. */
export type IrrigationAnswer = IrrigationRecordView;

export const { fromWire: irrigationFromWire, toWire: requestOf } = sameShapeWire(
  irrigationRequestSchema,
  irrigationOf,
  recordFieldsOf,
);

/** A stored record as the API answers it, with what an export would refuse of it now (`blockers`). */
export const irrigationView = (
  record: StoredIrrigation,
  blockers: IrrigationAnswer['exportBlockers'],
): IrrigationAnswer => withExportability(record, blockers);
