import { FarmIndex } from '../farms/farm-index';
import { mapPlan } from './cue-block';
import { StoredPlan } from './stored-record';
import { PlanAnswer, planAnswerView } from './wire-mapper';

/**
 * A plan as every answer shows it: the stored record with what an export would refuse of it now, judged by the
 * export's own mapping (cue-block.ts), so an ERP learns at registration what SIEX will need. Worked out on each answer:
 * the farm's data (REA code, DGCs) can change under it.
 */
export function planAnswer(record: StoredPlan, farm: FarmIndex): PlanAnswer {
  const mapped = mapPlan(record, farm);
  return planAnswerView(
    record,
    mapped.ok ? [] : mapped.missing.map((message) => ({ code: 'MISSING_DATA' as const, message })),
  );
}
