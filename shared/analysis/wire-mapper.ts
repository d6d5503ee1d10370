import { Analysis } from './analysis';
import { AnalysisRecordView, AnalysisRequest, analysisRequestSchema } from './wire';
import { analysisOf as fromFields, RecordFields, recordFieldsOf, StoredAnalysis } from './stored-record';

/**
 * The analysis on the wire: with wire*.ts, the one module of the kind that reads the API's schemas. Today the wire
 * request has the fields a record keeps of its request (stored-record.ts), so the two share one mapping; the functions
 * below assign one type to the other, and the day either changes the compiler refuses them.
 */
export const analysisWire = { request: analysisRequestSchema };

/** The API's answer for an analysis: the stored record and whether SIEX would take it now. */
export type AnalysisAnswer = AnalysisRecordView;

const asFields = (r: AnalysisRequest): RecordFields => r;
const asWire = (fields: RecordFields): AnalysisRequest => fields;

/** Any body as the domain value: the parse makes it the typed wire form (with zod's defaults) whatever the caller. */
export function analysisFromWire(body: unknown): Analysis {
  return fromFields(asFields(analysisRequestSchema.parse(body)));
}

/** Back to the wire, for an amendment's merge patch and a record's history: what `analysisFromWire` reads. */
export function requestOf(a: Analysis): AnalysisRequest {
  return asWire(recordFieldsOf(a));
}

/** A stored record as the API answers it, with what an export would refuse of it now (`blockers`). */
export function analysisView(record: StoredAnalysis, blockers: AnalysisAnswer['exportBlockers']): AnalysisAnswer {
  return { ...record, exportable: blockers.length === 0, exportBlockers: blockers };
}
