import { sameShapeWire, withExportability } from '../records/same-shape-wire';
import { PlanRecordView, planRequestSchema } from './wire';
import { planOf, recordFieldsOf, StoredPlan } from './stored-record';

/**
 *
 * Today the wire request has exactly the fields the kind keeps of a request, so one mapping serves both
 * (shared/records/same-shape-wire.ts), tied both ways at compile time.
 */
export const planWire = { request: planRequestSchema };

/** The API's answer for a plan: the stored record and whether SIEX would take it now. */
export type PlanAnswer = PlanRecordView;

export const { fromWire: planFromWire, toWire: requestOf } = sameShapeWire(planRequestSchema, planOf, recordFieldsOf);

/** A stored record as the API answers it, with what an export would refuse of it now (`blockers`). */
export const planAnswerView = (record: StoredPlan, blockers: PlanAnswer['exportBlockers']): PlanAnswer =>
  withExportability(record, blockers);
