import { FarmIndex } from '../farms/farm-index';
import { PlanNeed } from '../rules/nutrient-balance';
import { planOf, StoredPlan } from './stored-record';

/**
 * What a stored plan states for the nutrient balance (shared/rules/nutrient-balance.ts): its needs on each of its
 * locations that is still one of the farm campaign's, per hectare as the plan states them (RD 1051/2022 art. 6).
 */
export function planNeeds(record: StoredPlan, farm: FarmIndex): PlanNeed[] {
  const p = planOf(record);
  return p.idcp
    .filter((idcp) => farm.byIdcp.has(idcp))
    .map((idcp) => ({ farm: farm.meta.farmId, idcp, record: record.id, date: p.date, needs: { ...p.needs } }));
}
