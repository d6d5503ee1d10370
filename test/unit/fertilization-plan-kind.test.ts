import { FarmIndex } from '../../shared/farms/farm-index';
import { fertilizationPlanEntry } from '../../shared/fertilization-plan/kind-entry';
import { planKind } from '../../shared/fertilization-plan/plan-kind';
import { PLAN_BOUNDS } from '../../shared/fertilization-plan/quantity-rules';
import { planRecordSchema } from '../../shared/fertilization-plan/wire';
import { NUTRIENT_PLANS } from '../../shared/rules/nutrient-balance';
import { descriptorProblems, ENVELOPE_FIELDS } from '../../shared/siex/cue-descriptor';
import { cueDocument } from '../../shared/siex/cue-mapping';
import { cueValidator } from '../helpers/cue-schema';
import { fertilizationFarm } from '../helpers/fertilization-fixtures';
import { kindHarness } from '../helpers/kind-harness';
import { madrid } from '../helpers/phyto-fixtures';
import { planBody } from '../helpers/plan-fixtures';

/**
 * Issue 35, item 3: the fertilization plan (`AgriFertilizationPlan`, CUE `PlanAbonado`, RD 1051/2022 arts. 5.a and 6)
 * through the records core's port (shared/records/record-kind.ts), as the core drives a kind: a request mapped to its
 * domain value, judged, its view, its CUE blocks (valid against schema 3.11.4 and the descriptor table) and the needs
 * it publishes for the nutrient balance. Each rule at its boundary.
 */
describe('the fertilization plan record kind', () => {
  const kind = planKind;
  // Vine (102) on idcp 101 (2.35 ha), 102 (1.10 ha) and 103 (3.80 ha); olive on 201 (4.12 ha).
  const farm = fertilizationFarm();
  const { reference, judge, codes, recordOf, blocksOf } = kindHarness(kind, farm, madrid('14-05-2026 18:00:00'));

  it('maps the wire body to its domain value and back, keyed by its previous crop for lists', () => {
    const body = kind.wire.request.parse(planBody());
    expect(kind.toWire(kind.toRequest(body))).toEqual(body);
    expect(kind.fromStored(JSON.parse(JSON.stringify(kind.toStored(kind.toRequest(body)))))).toEqual(
      kind.toRequest(body),
    );
    expect(kind.appliedAt(kind.toRequest(body)).toISO()).toBe('2026-05-13T00:00:00.000+02:00');
    expect(kind.listValue(kind.toRequest(body))).toBe('102');
    expect(kind.historyKeys(farm, kind.toRequest(body))).toEqual([]);
    expect(kind.blockKeys(farm, kind.toRequest(planBody({ idcp: ['101', '201', '102'] })))).toEqual([
      '102~1001',
      '101~2001',
    ]);
  });

  it('refuses on the wire a negative need, a yield target of 0, and a plan without its tool flag', () => {
    const parsed = (o: Record<string, unknown>) => kind.wire.request.safeParse(planBody(o));
    expect(parsed({ needs: { n: 0, p2o5: 0, k2o: 0 } }).success).toBe(true);
    expect(parsed({ needs: { n: -0.01, p2o5: 0, k2o: 0 } }).success).toBe(false);
    expect(parsed({ yieldTarget: 0 }).success).toBe(false);
    expect(parsed({ tool: undefined }).success).toBe(false);
    expect(parsed({ idcp: [] }).success).toBe(false);
    expect(parsed({ needs: { n: 1, p2o5: 1 } }).success).toBe(false);
  });

  it('holds each need to 1000 kg/ha and the yield target to 500000 kg/ha: the bound passes, past it is 422', () => {
    expect(PLAN_BOUNDS).toEqual({ need: 1000, yieldTarget: 500000 });
    expect(codes(planBody({ needs: { n: 1000, p2o5: 1000, k2o: 1000 }, yieldTarget: 500000 }))).toEqual([]);
    expect(codes(planBody({ needs: { n: 1000.01, p2o5: 1000.01, k2o: 1e13 }, yieldTarget: 500000.01 }))).toEqual([
      'QUANTITY_OUT_OF_BOUNDS body.needs.n',
      'QUANTITY_OUT_OF_BOUNDS body.needs.p2o5',
      'QUANTITY_OUT_OF_BOUNDS body.needs.k2o',
      'QUANTITY_OUT_OF_BOUNDS body.yieldTarget',
    ]);
    expect(judge(planBody({ needs: { n: 6000, p2o5: 30, k2o: 90 } })).violations[0]?.message).toBe(
      "6000 kg/ha is more than 1000 kg/ha, the most nitrogen need a plan may state (RD 1051/2022 art. 6 states no figure; the gateway's bound, above any crop's)",
    );
  });

  it("takes RD 1051/2022's month to register, in the campaign and not in the future, and checks the codes", () => {
    expect(codes(planBody({ date: '14-04-2026' }))).toEqual([]);
    expect(codes(planBody({ date: '13-04-2026' }))).toEqual(['DATE_TOO_OLD body.date']);
    expect(codes(planBody({ date: '13-04-2026' }), true)).toEqual([]);
    expect(codes(planBody({ date: '14-05-2026' }))).toEqual([]);
    expect(codes(planBody({ date: '15-05-2026' }))).toEqual(['DATE_IN_FUTURE body.date']);
    expect(codes(planBody({ date: '31-12-2025' }), true)).toEqual(['OUTSIDE_CAMPAIGN body.date']);
    expect(
      codes(planBody({ idcp: ['102', '999'], previousCrop: { type: 'TypeCrop', id: '99999', name: '' } })),
    ).toEqual(['IDCP_NOT_FOUND body.idcp[1]', 'UNKNOWN_SIEX_CODE body.previousCrop.id']);
    // Fallow as the previous crop: a PRODUCTOS code in force.
    expect(codes(planBody({ previousCrop: { type: 'TypeCrop', id: '20', name: 'BARBECHO TRADICIONAL' } }))).toEqual([]);
  });

  it('keeps the request in its view', () => {
    const record = recordOf(planBody(), 12);
    expect(record).toMatchObject({
      id: 'urn:ngsi-ld:AgriFertilizationPlan:12',
      dateCreated: '14-05-2026 18:00:00',
      needs: { n: 60, p2o5: 30, k2o: 90 },
    });
    expect(planRecordSchema.strict().parse(record)).toEqual(record);
    expect(kind.upgrade(record, kind.format)).toBe(record);
  });

  it('writes every field of PlanAbonado, one block per crop, valid against schema 3.11.4 and the descriptor', () => {
    expect([kind.cue.section, kind.cue.idAjena]).toEqual(['PlanAbonado', 'IdAjenaPlan']);
    const blocks = [
      ...blocksOf(planBody({ idcp: ['101', '201'], needs: { n: 60.005, p2o5: 30, k2o: 90 } })).map((b, k) => ({
        IdAjenaPlan: 11 + k,
        ...b.body,
      })),
      { IdAjenaPlan: 13, ...blocksOf(planBody({ tool: false }))[0].body, Borrar: true },
    ];
    const doc = cueDocument(farm, { PlanAbonado: blocks });
    expect(descriptorProblems({ ...ENVELOPE_FIELDS, ...kind.cue.fields }, doc)).toEqual([]);
    const validate = cueValidator();
    expect(validate(doc) ? [] : validate.errors).toEqual([]);
    expect(blocks[0]).toEqual({
      IdAjenaPlan: 11,
      // Rounded to the hundredth the descriptor's number(8,2) writes.
      NecesidadUFN: 60.01,
      NecesidadUFP2O5: 30,
      NecesidadUFK2O: 90,
      ObjetivoProduccion: 8000,
      CultivoPrecedente: 102,
      Herramienta: true,
      FechaGeneracion: '13/05/2026',
      // The section's DGCs have no area: the plan is per hectare.
      DGCs: [{ CodigoDGC: 4600000101, CodigoCultivo: 102 }],
    });
    expect(blocks[1]).toMatchObject({ IdAjenaPlan: 12, DGCs: [{ CodigoDGC: 4600000201, CodigoCultivo: 101 }] });
    expect(blocks[2]).toMatchObject({ Herramienta: false, Borrar: true });
  });

  it('is not exportable while a location has no DGC code, and says so', () => {
    const doc = farm.doc;
    const noDgc = new FarmIndex({ ...doc, idcps: doc.idcps.map((e) => (e.idcp === 102 ? { ...e, dgc: '' } : e)) });
    const answer = kind.answer(recordOf(planBody()), noDgc, null);
    expect([answer.exportable, answer.exportBlockers.map((b) => b.message)]).toEqual([
      false,
      ['enclosure of idcp 102 has no DGC code (CodigoDGC)'],
    ]);
  });

  it('publishes its needs on each of its locations still in the farm campaign, for the nutrient balance', () => {
    const record = recordOf(planBody({ idcp: ['101', '102'] }));
    const publication = fertilizationPlanEntry.load.reads().publishes?.[NUTRIENT_PLANS];
    const without101 = new FarmIndex({ ...farm.doc, idcps: farm.doc.idcps.filter((e) => e.idcp !== 101) });
    expect(publication?.facts(record, without101, reference)).toEqual([
      { farm: farm.meta.farmId, idcp: 102, record: record.id, date: '2026-05-13', needs: { n: 60, p2o5: 30, k2o: 90 } },
    ]);
  });
});
