import { z } from 'zod';
import { analysisListQuerySchema, AnalysisRecordView } from './wire';
import { ListFilter } from '../records/list-records';

export type AnalysisListFilters = Omit<z.infer<typeof analysisListQuerySchema>, 'agrifarmId'>;

/**
 * What the analysis list filters on besides the period (shared/records/list-records.ts): the analysed material, kept
 * on each row as the kind's list value (its MATERIAL_ANALIZADO code as a number's text, so `03` finds `3`); and what only the
 * record itself says (its export state, exportability, locations), when any of them is asked.
 */
export function analysisListFilter(q: AnalysisListFilters): ListFilter<AnalysisRecordView> {
  const onAnswers = q.exported !== undefined || q.exportable !== undefined || q.idcp !== undefined;
  return {
    ...(q.material !== undefined ? { value: String(Number(q.material)) } : {}),
    ...(onAnswers
      ? {
          answers: (record: AnalysisRecordView) =>
            (q.exported === undefined || record.exported === String(q.exported)) &&
            (q.exportable === undefined || record.exportable === (q.exportable === 1)) &&
            (q.idcp === undefined || record.idcp.includes(String(Number(q.idcp)))),
        }
      : {}),
  };
}
