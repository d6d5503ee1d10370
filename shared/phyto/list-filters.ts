import { z } from 'zod';
import { listQuerySchema, PhytoRecordView } from './wire-record';
import { ListFilter } from '../records/list-records';

export type ListFilters = Omit<z.infer<typeof listQuerySchema>, 'agrifarmId'>;

/**
 * What the treatment list filters on besides the period (shared/records/list-records.ts): the product, kept on each
 * row; and what only the record itself says (its export state, exportability, locations), when any of them is asked.
 */
export function treatmentListFilter(q: ListFilters): ListFilter<PhytoRecordView> {
  const onAnswers = q.exported !== undefined || q.exportable !== undefined || q.idcp !== undefined;
  return {
    ...(q.product !== undefined ? { value: q.product } : {}),
    ...(onAnswers
      ? {
          answers: (record: PhytoRecordView) =>
            (q.exported === undefined || record.exported === String(q.exported)) &&
            (q.exportable === undefined || record.exportable === (q.exportable === 1)) &&
            (q.idcp === undefined || record.idcp.includes(String(Number(q.idcp)))),
        }
      : {}),
  };
}
