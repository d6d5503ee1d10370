import { zodViolations } from '../../shared/domain/validation';
import { statusOf } from '../../shared/http/error-status';
import { FarmIndex } from '../../shared/farms/farm-index';
import { mapRecord } from '../../shared/phyto/cue-block';
import { buildRecord } from '../../shared/phyto/record-view';
import { checkApplication } from '../../shared/phyto/rules';
import { phytoRequestSchema } from '../../shared/phyto/wire';
import { phytoRecordViewSchema } from '../../shared/phyto/wire-record';
import { treatmentFromWire, treatmentView } from '../../shared/phyto/wire-mapper';
import { cueDocument } from '../../shared/siex/cue-mapping';
import { descriptorProblems } from '../helpers/cue-descriptor';
import { cueValidator } from '../helpers/cue-schema';
import { CARDS, farmIndexDoc, phytoRequest, ruleContext, UNITS } from '../helpers/phyto-fixtures';

/**
 * Non-chemical measures in a field treatment (issue 34 item 5; CUE `TratamFito.OtrasActuacionesFito`): a treatment is
 * a product or a measure, never both (FEGA's descriptor); a measure is judged by every rule of the pass that is not a
 * product's, and goes out with `OtrasActuacionesFito` and no `ProductosFito`.
 */

const PER_HA = { type: 'Measure', name: 'Unidades por hectárea', symbol: 'Unidades/ha', code: 16 } as const;

/** Pheromone dispensers for monitoring (TIPO_MEDIDA_FITOSANITARIA 15), 3 per hectare, with their MDF number. */
const PHEROMONES = {
  type: 'TypePhytoMeasure',
  id: '15',
  name: 'Feromonas y atrayentes para monitoreo',
  quantity: 3,
  measure: PER_HA,
  mdfRegistration: 'MDF-0123',
} as const;

function measureBody(o: Record<string, unknown> = {}, measure: Record<string, unknown> = {}): Record<string, unknown> {
  const {
    subtype: _s,
    dose: _d,
    measure: _m,
    ...rest
  } = phytoRequest({
    infection: { type: 'TypeInfection', kind: 'plaga', id: '18', name: 'Araña amarilla' },
    tj: [{ type: 'TypeJustification', id: '2', name: '' }],
    efficacy: { type: 'TypeEfficacy', id: '1', name: 'Buena', detail: '' },
    manual: true,
    machine: [{ type: 'Machine', id: '060303013', name: 'A mano', roma: '', inspection: '', ref: 'MANUAL-1' }],
  });
  return {
    ...rest,
    otherMeasure: { ...PHEROMONES, ...measure },
    ...o,
  };
}

const parse = (body: unknown) => phytoRequestSchema.safeParse(body);
const refusals = (body: unknown) => {
  const r = parse(body);
  return r.success ? [] : zodViolations('body', r.error);
};

/** The rules' verdict on a measure request: the rule context of the default request, its treatment replaced. */
function judged(body: Record<string, unknown>, now?: string) {
  const request = phytoRequestSchema.parse(body);
  const { dateApplication, idcp, applicator } = request;
  const base = ruleContext({ request: { dateApplication, idcp, applicator }, ...(now ? { now } : {}) });
  const ctx = { ...base, treatment: treatmentFromWire(request), product: undefined, history: new Map() };
  return { ctx, ...checkApplication(ctx) };
}
const codes = (body: Record<string, unknown>, now?: string) =>
  judged(body, now).violations.map((v) => [v.code, v.path]);

describe('a treatment is a product or a measure (FEGA: OtrasActuacionesFito excludes ProductosFito)', () => {
  it('takes a measure with no subtype, dose or measure', () => {
    expect(refusals(measureBody())).toEqual([]);
  });

  it('refuses a measure beside a product: 422 PRODUCT_AND_MEASURE on each product field', () => {
    const mixed = { ...measureBody(), subtype: phytoRequest().subtype, dose: 0.5 };
    const found = refusals(mixed);
    expect(found.map((v) => [v.code, v.path])).toEqual([
      ['PRODUCT_AND_MEASURE', 'body.subtype'],
      ['PRODUCT_AND_MEASURE', 'body.dose'],
    ]);
    expect(statusOf(found)).toBe(422);
  });

  it('refuses neither: the product, its dose and unit are required without a measure', () => {
    const { otherMeasure: _none, ...neither } = measureBody();
    const found = refusals(neither);
    expect(found.map((v) => [v.code, v.path])).toEqual([
      ['REQUIRED', 'body.subtype'],
      ['REQUIRED', 'body.dose'],
      ['REQUIRED', 'body.measure'],
    ]);
    expect(statusOf(found)).toBe(400);
  });

  it('a product treatment is as it was', () => {
    expect(refusals(phytoRequest())).toEqual([]);
  });
});

describe('the rules of a measure', () => {
  it('a lawful measure has no violation, and no product rule runs', () => {
    expect(codes(measureBody())).toEqual([]);
  });

  it("Cantidad's unit is one FEGA lists (11, 15, 16, 1, 28, 5, 17): 16 uds./ha passes, % is 422", () => {
    for (const unit of [PER_HA, UNITS.kgHa]) expect(codes(measureBody({}, { measure: unit }))).toEqual([]);
    expect(codes(measureBody({}, { measure: UNITS.percent }))).toEqual([
      ['MEASURE_QUANTITY_UNIT', 'body.otherMeasure.measure.code'],
    ]);
    // Traps per hectare (24) are a SIEX unit FEGA does not list for a measure.
    const traps = { type: 'Measure', name: 'Trampas/ha', symbol: 'Trampas/ha', code: 24 };
    expect(codes(measureBody({}, { measure: traps }))).toEqual([
      ['MEASURE_QUANTITY_UNIT', 'body.otherMeasure.measure.code'],
    ]);
  });

  it('NumRegistroMDF is required for measures 1, 14 and 15, and only for them', () => {
    for (const id of ['1', '14', '15'])
      expect(codes(measureBody({}, { id, mdfRegistration: undefined }))).toEqual([
        ['MDF_REGISTRATION_REQUIRED', 'body.otherMeasure.mdfRegistration'],
      ]);
    for (const id of ['2', '3', '12'])
      expect(codes(measureBody({}, { id, mdfRegistration: undefined, measure: { ...PER_HA } }))).toEqual([]);
  });

  it('checks its codes: the measure type, the unit, and a good practice of the "Fitosanitario" scope', () => {
    // 13 is not in TIPO_MEDIDA_FITOSANITARIA (the catalogue goes 12, 14).
    expect(codes(measureBody({}, { id: '13' }))).toEqual([['UNKNOWN_SIEX_CODE', 'body.otherMeasure.id']]);
    const practice = (id: string) => ({ goodPractice: { type: 'TypeGoodPractice', id, name: '' } });
    // 17 is a Fitosanitario row; 21 is a Riego row only.
    expect(codes(measureBody({}, practice('17')))).toEqual([]);
    expect(codes(measureBody({}, practice('21')))).toEqual([
      ['UNKNOWN_SIEX_CODE', 'body.otherMeasure.goodPractice.id'],
    ]);
  });

  it('still judges the pass: its locations and its applicator', () => {
    expect(codes(measureBody({ idcp: ['999'] })).map(([c]) => c)).toContain('IDCP_NOT_FOUND');
    const stranger = { user: { type: 'UserMetadata', nif: CARDS.basico.nif, ropo: 'ES-99999999' } };
    expect(codes(measureBody({ applicator: stranger })).map(([c]) => c)).toContain('APPLICATOR_NOT_RECOGNISED');
  });
});

describe('a measure in the record and in SIEX', () => {
  const recordOf = (body: Record<string, unknown>) => {
    const { ctx, violations, resolution } = judged(body);
    expect(violations).toEqual([]);
    return buildRecord(7, ctx.treatment, undefined, resolution, ctx.farm, false, ctx.now);
  };

  it('the record has no product and shows the measure; read back, it is a valid request again', () => {
    const goodPractice = { type: 'TypeGoodPractice', id: '17', name: '' };
    const record = recordOf(measureBody({}, { goodPractice }));
    expect(record).toMatchObject({ subtype: null, dose: '', measure: null, seclimit: '' });
    expect(record.otherMeasure).toEqual({ ...PHEROMONES, goodPractice });
    const view = treatmentView(record, []);
    expect(phytoRecordViewSchema.safeParse(view).success).toBe(true);
    // Records round-trip (issue 26): the record less its read-only fields is the request.
    const { otherMeasure, idcp, applicator, dateApplication, type, dose, subtype, measure } = view;
    expect(refusals({ type, dateApplication, idcp, applicator, otherMeasure, dose, subtype, measure })).toEqual([]);
  });

  it('goes out as TratamFito with OtrasActuacionesFito and no ProductosFito, valid against schema 3.11.4', () => {
    const goodPractice = { type: 'TypeGoodPractice', id: '17', name: '' };
    const record = recordOf(measureBody({}, { quantity: 2.505, goodPractice }));
    const doc = farmIndexDoc();
    const farm = new FarmIndex({ ...doc, idcps: doc.idcps.map((e, i) => ({ ...e, dgc: `460000000${i}` })) });
    const mapped = mapRecord(record, 7, farm);
    if (!mapped.ok) throw new Error(mapped.missing.join('; '));
    const [block] = mapped.blocks;
    expect(block).not.toHaveProperty('ProductosFito');
    // Cantidad number(8,2), as the section's.
    expect(block.OtrasActuacionesFito).toEqual({
      TipoMedida: 15,
      Cantidad: 2.51,
      Unidad: 16,
      NumRegistroMDF: 'MDF-0123',
      BuenasPracticas: 17,
    });
    const cue = cueDocument(farm, { TratamFito: mapped.blocks });
    const validate = cueValidator();
    expect(validate(cue) ? [] : validate.errors).toEqual([]);
    expect(descriptorProblems(cue)).toEqual([]);
  });

  it('a quantity the two decimals write as 0 is not sent', () => {
    const mapped = mapRecord(recordOf(measureBody({}, { quantity: 0.004 })), 7, new FarmIndex(farmIndexDoc()));
    expect(mapped.ok ? [] : mapped.missing.filter((m) => m.startsWith('otherMeasure'))).toEqual([
      'otherMeasure.quantity 0.004 is below 0.01, the least Cantidad the block writes (number(8,2))',
    ]);
  });
});
