import { sameShapeWire, withExportability } from '../records/same-shape-wire';
import { AnalysisRecordView, analysisRequestSchema } from './wire';
import { analysisOf, recordFieldsOf, StoredAnalysis } from './stored-record';

/**
 * The analysis on the wire: with wire*.ts, the one module of the kind that reads the API's schemas. Today the wire
 * request has the fields a record keeps of its request (stored-record.ts), so the two share one mapping; the functions
 * below assign one type to the other, and the day either changes the compiler refuses them.
 *
 * Today the wire request has exactly the fields the kind keeps of a request, so one mapping serves both
 * (shared/records/same-shape-wire.ts), tied both ways at compile time.
 */
export const analysisWire = { request: analysisRequestSchema };

/** The API's answer for an analysis: the stored record and whether SIEX would take it now. */
export type AnalysisAnswer = AnalysisRecordView;

export const { fromWire: analysisFromWire, toWire: requestOf } = sameShapeWire(
  analysisRequestSchema,
  analysisOf,
  recordFieldsOf,
);

/** A stored record as the API answers it, with what an export would refuse of it now (`blockers`). */
export const analysisView = (record: StoredAnalysis, blockers: AnalysisAnswer['exportBlockers']): AnalysisAnswer =>
  withExportability(record, blockers);
