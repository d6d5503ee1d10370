import { Violation, violation } from '../domain/errors';
import { FertilizationPlan } from './plan';

/**
 * The figures of a plan within what a crop can need or yield (a design decision of the gateway, README's decision
 * table): RD 1051/2022 art. 6 has the plan state the crop's needs in N, P2O5 and K2O for its yield target, in
 * kilograms per hectare, and sets no figure for them, so the bounds refuse only what no crop reaches and what would
 * make the record unreadable (a need of 1e13 kg/ha). The most fertilizer-hungry crops of the Spanish guide (MAPA, "Guía
 * práctica de la fertilización racional de los cultivos en España") need some hundreds of kg/ha of a nutrient and yield
 * some hundred tonnes per hectare under glass; both bounds stay inside the CUE's number(8,2) (cue-fields.ts).
 */
export const PLAN_BOUNDS = {
  /** kg/ha of N, of P2O5 and of K2O. */
  need: 1000,
  /** kg/ha of produce. */
  yieldTarget: 500_000,
} as const;

export function planQuantityRules(p: FertilizationPlan): Violation[] {
  const out: Violation[] = [];
  const check = (value: number, max: number, path: string, what: string) => {
    if (value > max)
      out.push(
        violation(
          'QUANTITY_OUT_OF_BOUNDS',
          path,
          `${value} kg/ha is more than ${max} kg/ha, the most ${what} a plan may state (RD 1051/2022 art. 6 states ` +
            `no figure; the gateway's bound, above any crop's)`,
        ),
      );
  };
  check(p.needs.n, PLAN_BOUNDS.need, 'body.needs.n', 'nitrogen need');
  check(p.needs.p2o5, PLAN_BOUNDS.need, 'body.needs.p2o5', 'P2O5 need');
  check(p.needs.k2o, PLAN_BOUNDS.need, 'body.needs.k2o', 'K2O need');
  check(p.yieldTarget, PLAN_BOUNDS.yieldTarget, 'body.yieldTarget', 'yield target');
  return out;
}
