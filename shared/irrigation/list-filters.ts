import { z } from 'zod';
import { irrigationListQuerySchema, IrrigationRecordView } from './wire';
import { ListFilter } from '../records/list-records';

export type IrrigationListFilters = Omit<z.infer<typeof irrigationListQuerySchema>, 'agrifarmId'>;

/**
 * What the irrigation list filters on besides the period (shared/records/list-records.ts): the irrigation system, kept
 * on each row as the kind's list value (its SIST_RIEGO code as a number's text, so `06` finds `6`); and what only the
 * record itself says (its export state, exportability, locations), when any of them is asked.
 */
export function irrigationListFilter(q: IrrigationListFilters): ListFilter<IrrigationRecordView> {
  const onAnswers = q.exported !== undefined || q.exportable !== undefined || q.idcp !== undefined;
  return {
    ...(q.system !== undefined ? { value: String(Number(q.system)) } : {}),
    ...(onAnswers
      ? {
          answers: (record: IrrigationRecordView) =>
            (q.exported === undefined || record.exported === String(q.exported)) &&
            (q.exportable === undefined || record.exportable === (q.exportable === 1)) &&
            (q.idcp === undefined || record.idcp.includes(String(Number(q.idcp)))),
        }
      : {}),
  };
}
