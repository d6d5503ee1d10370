import { fertilizationKind } from '../../shared/fertilization/fertilization-kind';
import { fertilizationEntry } from '../../shared/fertilization/kind-entry';
import { fertilizationPlanEntry } from '../../shared/fertilization-plan/kind-entry';
import { planKind } from '../../shared/fertilization-plan/plan-kind';
import { DomainError } from '../../shared/domain/errors';
import { RecordView } from '../../shared/records/record-rows';
import { farmNutrientBalance, nutrientBalance } from '../../shared/fertilization-plan/nutrient-balance';
import {
  NUTRIENT_INPUTS,
  NUTRIENT_PLANS,
  nutrientInputSchema,
  PlanNeed,
  planNeedSchema,
} from '../../shared/rules/nutrient-balance';
import { fertilizationFarm, mineralBody, slurryBody } from '../helpers/fertilization-fixtures';
import { kindHarness } from '../helpers/kind-harness';
import { madrid } from '../helpers/phyto-fixtures';
import { NPK_15_15_15, planBody } from '../helpers/plan-fixtures';

/**
 * Issue 35, item 3, beyond SIEX: the nutrient balance of a crop location, computed by hand for a plan and three
 * fertilizations, through what each kind publishes (its read side's `publishes`, the facts port of
 * shared/records/record-facts.ts) and the balance of the plans' kind (shared/fertilization-plan/nutrient-balance.ts).
 */
describe('the nutrient balance', () => {
  // Vine on idcp 101 (2.35 ha), 102 (1.10 ha) and 103 (3.80 ha); olive on 201.
  const farm = fertilizationFarm();
  const now = madrid('14-05-2026 18:00:00');
  const planHarness = kindHarness(planKind, farm, now);
  const fertilizations = kindHarness(fertilizationKind, farm, now);
  const reference = planHarness.reference;
  let next = 1;
  const planOf = (body: Record<string, unknown>) => planHarness.recordOf(body, next++);
  const fertilizationOf = (body: Record<string, unknown>) => fertilizations.recordOf(body, next++);
  const facts = (entry: typeof planEntry | typeof ferti, topic: string, record: RecordView) =>
    entry.load.reads().publishes![topic].facts(record, farm, reference);
  const needsOf = (record: RecordView) => facts(planEntry, NUTRIENT_PLANS, record).map((x) => planNeedSchema.parse(x));
  const inputsOf = (record: RecordView) =>
    facts(ferti, NUTRIENT_INPUTS, record).map((x) => nutrientInputSchema.parse(x));
  const planEntry = fertilizationPlanEntry;
  const ferti = fertilizationEntry;

  // The plan of idcp 102: 260 kg N, 109.5 kg P2O5 and 100 kg K2O a hectare.
  const plan = planOf(planBody({ needs: { n: 260, p2o5: 109.5, k2o: 100 } }));
  // 1. 300 kg/ha of calcium ammonium nitrate at 27 % N on 102: 81 kg N/ha, no P2O5 or K2O.
  const can = fertilizationOf(mineralBody({ dateStart: '10-05-2026', idcp: ['102'] }));
  // 2. 200 kg/ha of NPK 15-15-15 on 1.725 ha of 101 and 102 (3.45 ha together): half the ground, so each location
  //    got 30 kg/ha of each nutrient on half of it, 15 kg/ha of the location.
  const npk = fertilizationOf(
    mineralBody({ dateStart: '11-05-2026', idcp: ['101', '102'], material: NPK_15_15_15, dose: 200, surface: '1.725' }),
  );
  // 3. 30 m3/ha of pig slurry at 1.05 kg/L on 102: 31,500 kg/ha, at 0.5 % N, 0.3 % P2O5 and 0.4 % K2O, that is
  //    157.5 kg N, 94.5 kg P2O5 and 126 kg K2O a hectare.
  const slurry = fertilizationOf(slurryBody({ dateStart: '12-05-2026', idcp: ['102'] }));
  const plans = needsOf(plan);
  const inputs = [can, npk, slurry].flatMap(inputsOf);

  it('adds what the three fertilizations brought and names the nutrients past the plan (equal is not past it)', () => {
    // N: 81 + 15 + 157.5 = 253.5, below 260. P2O5: 0 + 15 + 94.5 = 109.5, the plan's own figure. K2O: 0 + 15 + 126
    // = 141, above 100.
    expect(farmNutrientBalance(plans, inputs, farm, '102')).toEqual([
      {
        idcp: 102,
        crop: { typecrop: { id: '102', name: 'VIÑA' }, code: 1001, name: 'TEMPRANILLO' },
        campaign: 2026,
        plan: { record: plan.id, date: '13-05-2026', needs: { n: 260, p2o5: 109.5, k2o: 100 } },
        applied: { n: 253.5, p2o5: 109.5, k2o: 141 },
        fertilizations: [
          { record: can.id, date: '10-05-2026', n: 81, p2o5: 0, k2o: 0 },
          { record: npk.id, date: '11-05-2026', n: 15, p2o5: 15, k2o: 15 },
          { record: slurry.id, date: '12-05-2026', n: 157.5, p2o5: 94.5, k2o: 126 },
        ],
        exceeds: ['k2o'],
      },
    ]);
  });

  it('answers every location of the farm campaign in idcp order; one without a plan exceeds nothing', () => {
    const all = farmNutrientBalance(plans, inputs, farm, undefined);
    expect(all.map((b) => b.idcp)).toEqual([...farm.byIdcp.keys()].sort((a, b) => a - b));
    expect(all.find((b) => b.idcp === 101)).toMatchObject({
      plan: null,
      applied: { n: 15, p2o5: 15, k2o: 15 },
      exceeds: [],
    });
    expect(all.find((b) => b.idcp === 201)).toMatchObject({ plan: null, applied: { n: 0, p2o5: 0, k2o: 0 } });
  });

  it("reads the location's last plan, and leaves out another farm campaign's facts", () => {
    const later = planOf(planBody({ date: '14-05-2026', needs: { n: 300, p2o5: 100, k2o: 150 } }));
    const other: PlanNeed = { ...plans[0], farm: farm.meta.farmId + 1, date: '2026-05-14', record: 'x:99' };
    const [b] = nutrientBalance([...plans, ...needsOf(later), other], inputs, farm.meta.farmId, [102]);
    expect([b.plan?.record, b.exceeds]).toEqual([later.id, ['p2o5']]);
  });

  it('shows a nutrient a record cannot say as null and adds nothing for it', () => {
    const noDensity = fertilizationOf(
      slurryBody({
        dateStart: '12-05-2026',
        idcp: ['102'],
        // A liquid with no nitrogen and no density: its P2O5 and K2O by mass cannot be read from m3/ha.
        material: {
          ...(slurryBody().material as object),
          id: '14',
          name: 'Productos fertilizantes: abonos inorgánicos',
          nutrients: [{ id: '6', percent: 10 }],
          treatment: undefined,
          supplier: undefined,
          density: undefined,
        },
        goodPractices: [],
      }),
    );
    const [b] = nutrientBalance(plans, inputsOf(noDensity), farm.meta.farmId, [102]);
    expect([b.fertilizations[0], b.applied]).toEqual([
      { record: noDensity.id, date: '2026-05-12', n: 0, p2o5: null, k2o: 0 },
      { n: 0, p2o5: 0, k2o: 0 },
    ]);
  });

  it('refuses an idcp that is not one of the farm campaign', () => {
    expect(() => farmNutrientBalance(plans, inputs, farm, '999')).toThrow(DomainError);
  });
});
