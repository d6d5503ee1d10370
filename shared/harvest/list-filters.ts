import { z } from 'zod';
import { ListFilter } from '../records/list-records';
import { harvestListQuerySchema, HarvestRecordView } from './wire';

export type HarvestListFilters = Omit<z.infer<typeof harvestListQuerySchema>, 'agrifarmId'>;

/**
 * What the harvest list filters on besides the period (shared/records/list-records.ts): the plant product, kept on
 * each row as the kind's list value (its PROD_VEGETAL Id as a number's text, so `0116` finds `116`); and what only the
 * record itself says (its export state, exportability, locations), when any of them is asked.
 */
export function harvestListFilter(q: HarvestListFilters): ListFilter<HarvestRecordView> {
  const onAnswers = q.exported !== undefined || q.exportable !== undefined || q.idcp !== undefined;
  return {
    ...(q.product !== undefined ? { value: String(Number(q.product)) } : {}),
    ...(onAnswers
      ? {
          answers: (record: HarvestRecordView) =>
            (q.exported === undefined || record.exported === String(q.exported)) &&
            (q.exportable === undefined || record.exportable === (q.exportable === 1)) &&
            (q.idcp === undefined || record.idcp.includes(String(Number(q.idcp)))),
        }
      : {}),
  };
}
