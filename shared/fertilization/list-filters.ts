import { z } from 'zod';
import { fertilizationListQuerySchema, FertilizeRecordView } from './wire';
import { ListFilter } from '../records/list-records';

export type FertilizationListFilters = Omit<z.infer<typeof fertilizationListQuerySchema>, 'agrifarmId'>;

/**
 * What the fertilization list filters on besides the period (shared/records/list-records.ts): the material, kept on
 * each row as the kind's list value (its MAT_FERTI code as a number's text, so `014` finds `14`); and what only the
 * record itself says (its export state, exportability, locations), when any of them is asked.
 */
export function fertilizationListFilter(q: FertilizationListFilters): ListFilter<FertilizeRecordView> {
  const onAnswers = q.exported !== undefined || q.exportable !== undefined || q.idcp !== undefined;
  return {
    ...(q.material !== undefined ? { value: String(Number(q.material)) } : {}),
    ...(onAnswers
      ? {
          answers: (record: FertilizeRecordView) =>
            (q.exported === undefined || record.exported === String(q.exported)) &&
            (q.exportable === undefined || record.exportable === (q.exportable === 1)) &&
            (q.idcp === undefined || record.idcp.includes(String(Number(q.idcp)))),
        }
      : {}),
  };
}
