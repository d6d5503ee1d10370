import { FertilizationPlan } from './plan';
import { PlanRecordView, PlanRequest, planRequestSchema } from './wire';
import { planOf as fromFields, RecordFields, recordFieldsOf, StoredPlan } from './stored-record';

/**
 * The plan on the wire: with wire*.ts, the one module of the kind that reads the API's schemas. Today the wire request
 * has the fields a record keeps of its request (stored-record.ts), so the two share one mapping; the functions below
 * assign one type to the other, and the day either changes the compiler refuses them.
 */
export const planWire = { request: planRequestSchema };

/** The API's answer for a plan: the stored record and whether SIEX would take it now. */
export type PlanAnswer = PlanRecordView;

const asFields = (r: PlanRequest): RecordFields => r;
const asWire = (fields: RecordFields): PlanRequest => fields;

/** Any body as the domain value: the parse makes it the typed wire form (with zod's defaults) whatever the caller. */
export function planFromWire(body: unknown): FertilizationPlan {
  return fromFields(asFields(planRequestSchema.parse(body)));
}

/** Back to the wire, for an amendment's merge patch and a record's history: what `planFromWire` reads. */
export function requestOf(p: FertilizationPlan): PlanRequest {
  return asWire(recordFieldsOf(p));
}

/** A stored record as the API answers it, with what an export would refuse of it now (`blockers`). */
export function planAnswerView(record: StoredPlan, blockers: PlanAnswer['exportBlockers']): PlanAnswer {
  return { ...record, exportable: blockers.length === 0, exportBlockers: blockers };
}
