import { z } from 'zod';
import { planListQuerySchema, PlanRecordView } from './wire';
import { ListFilter } from '../records/list-records';

export type PlanListFilters = Omit<z.infer<typeof planListQuerySchema>, 'agrifarmId'>;

/**
 * What the plan list filters on besides the period (shared/records/list-records.ts): the previous crop, kept on each
 * row as the kind's list value (its PRODUCTOS code as a number's text, so `06` finds `6`); and what only the record
 * itself says (its export state, exportability, locations), when any of them is asked.
 */
export function planListFilter(q: PlanListFilters): ListFilter<PlanRecordView> {
  const onAnswers = q.exported !== undefined || q.exportable !== undefined || q.idcp !== undefined;
  return {
    ...(q.previousCrop !== undefined ? { value: String(Number(q.previousCrop)) } : {}),
    ...(onAnswers
      ? {
          answers: (record: PlanRecordView) =>
            (q.exported === undefined || record.exported === String(q.exported)) &&
            (q.exportable === undefined || record.exportable === (q.exportable === 1)) &&
            (q.idcp === undefined || record.idcp.includes(String(Number(q.idcp)))),
        }
      : {}),
  };
}
