import { registeredExportState } from '../../shared/records/export-state';
import { MAX_IDCP_PER_RECORD } from '../../shared/api/record-fields';
import { mixExample, MixItem, PhytoRequest, phytoRequestSchema } from '../../shared/phyto/wire';
import { Product } from '../../shared/catalog/product';
import { zodViolations } from '../../shared/domain/validation';
import { statusOf } from '../../shared/http/error-status';
import { guardKeysOf, HistoryEntry, updatedDayCounts } from '../../shared/phyto/application-change';
import { changeActions } from '../../shared/records/record-rows';
import { buildRecord } from '../../shared/phyto/record-view';
import { RECORD_FORMAT } from '../../shared/phyto/stored-record';
import { checkApplication } from '../../shared/phyto/rules';
import { FarmIndex } from '../../shared/farms/farm-index';
import { mapRecord } from '../../shared/phyto/cue-block';
import { cueDocument } from '../../shared/siex/cue-mapping';
import { cueValidator } from '../helpers/cue-schema';
import {
  ContextOptions,
  famolins,
  farmIndexDoc,
  microthiol,
  OLIVE,
  poltiglia as demoPoltiglia,
  poltigliaUnlimited,
  ProductRequest,
  ruleContext,
  topik,
  UNITS,
  VINE,
} from '../helpers/phyto-fixtures';

/**
 * Tank mixes (issue 24): every product of a pass judged against its own label as if applied alone, violations named
 * by the product's path, counts and intervals read per product, the bound on products × locations, and what a mix
 * becomes in the record and in SIEX.
 */

/** An acaricide on vine against the yellow mite (PLAGAS 18), 0.05-0.1 %, once per campaign, 21 days' safety. */
function acaricide(o: Partial<Product> = {}): Product {
  return {
    ...microthiol(),
    code: 'ES-25901',
    name: 'ACARICIDA DE PRUEBA',
    type: { id: 2, name: 'Acaricida' },
    requiredLevel: 'basico',
    uses: [
      {
        cropTypeIds: ['102'],
        pest: { code: 18, kind: 'plaga', name: 'Araña amarilla, Eotetranychus carpini' },
        doseMin: 0.05,
        doseMax: 0.1,
        unit: { code: 14, symbol: '%' },
        maxApplications: 1,
        safetyDays: 21,
      },
    ],
    ...o,
  };
}

const MITE = { type: 'TypeInfection', kind: 'plaga', id: '18', name: 'Araña amarilla' } as const;
const MILDEW = { type: 'TypeInfection', kind: 'enfermedad', id: '148', name: 'Oídio de la vid' } as const;

const item = (code: string, dose: number, measure: ProductRequest['measure'], o: Partial<MixItem> = {}): MixItem => ({
  subtype: { type: 'TypePhytosanitary', name: code, code },
  dose,
  measure,
  ...o,
});
const FAMOLINS = (dose = 25, o: Partial<MixItem> = {}) => item('ES-19534', dose, UNITS.kgHa, o);
const ACARICIDE = (dose = 0.08, o: Partial<MixItem> = {}) => item('ES-25901', dose, UNITS.percent, o);

const products = () => [microthiol(), famolins(), topik(), poltigliaUnlimited(), acaricide()];

function check(request: Partial<PhytoRequest>, o: Omit<ContextOptions, 'request'> = {}) {
  return checkApplication(ruleContext({ products: products(), ...o, request }));
}
const found = (request: Partial<PhytoRequest>, o: Omit<ContextOptions, 'request'> = {}) =>
  check(request, o).violations.map((v) => [v.code, v.path]);

describe('every product of a mix against its own label', () => {
  it('a lawful mix passes and resolves each product with the uses that authorize it', () => {
    const { violations, resolution } = check({ mix: [FAMOLINS(), ACARICIDE(0.08, { infection: MITE })] });
    expect(violations).toEqual([]);
    expect(resolution.uses).toEqual([microthiol().uses[0]]);
    expect(resolution.mixed!.map((m) => [m.product.code, m.uses])).toEqual([
      ['ES-19534', [famolins().uses[0]]],
      ['ES-25901', [acaricide().uses[0]]],
    ]);
  });

  it('a record without mix resolves no mixed products', () => {
    expect(check({}).resolution.mixed).toBeUndefined();
  });

  it('names the product that breaks its label by its path; the others pass', () => {
    expect(found({ mix: [FAMOLINS(31)] })).toEqual([['DOSE_ABOVE_MAX', 'body.mix[0].dose']]);
    expect(found({ mix: [FAMOLINS(), ACARICIDE(0.01)] })).toEqual([['DOSE_BELOW_MIN', 'body.mix[1].dose']]);
  });

  it('reports every product at fault in one answer, the main product with its own paths', () => {
    expect(
      found({
        dose: 0.9,
        mix: [FAMOLINS(25, { measure: UNITS.percent }), item('ES-99999', 1, UNITS.lHa), ACARICIDE(0.2)],
      }),
    ).toEqual([
      ['DOSE_ABOVE_MAX', 'body.dose'],
      ['DOSE_UNIT_INCOMPATIBLE', 'body.mix[0].measure'],
      ['PRODUCT_NOT_FOUND', 'body.mix[1].subtype.code'],
      ['DOSE_ABOVE_MAX', 'body.mix[2].dose'],
    ]);
  });

  it('a mixed product outside its crop, month or register term is named by its product code', () => {
    // TOPIK is for wheat only (and for a `cualificado` card): on vine it has no use.
    expect(found({ mix: [item('ES-19548', 0.18, UNITS.lHa)] })).toEqual([
      ['ROPO_LEVEL_INSUFFICIENT', 'body.mix[0].subtype.code'],
      ['PRODUCT_NOT_FOR_CROP', 'body.mix[0].subtype.code'],
    ]);
    // FAMOLINS is authorized in months 4-8; MICROTHIOL in 3-9: in March only the mixed one fails.
    const march = { dateApplication: '14-03-2026 10:00:00' };
    expect(found({ ...march, mix: [FAMOLINS()] }, { now: '15-03-2026 12:00:00' })).toEqual([
      ['OUTSIDE_AUTHORIZED_PERIOD', 'body.mix[0].subtype.code'],
    ]);
    const expired = acaricide({ expires: '31-12-2025' });
    expect(
      found({ mix: [ACARICIDE(0.08, { infection: MITE })] }, { products: [microthiol(), expired] }).map((v) => v[0]),
    ).toEqual(['PRODUCT_NOT_IN_FORCE']);
  });

  it("checks a mixed product's card level against the applicator's card", () => {
    const qualified = acaricide({ requiredLevel: 'cualificado' });
    expect(found({ mix: [ACARICIDE(0.08, { infection: MITE })] }, { products: [microthiol(), qualified] })).toEqual([
      ['ROPO_LEVEL_INSUFFICIENT', 'body.mix[0].subtype.code'],
    ]);
  });

  it("converts a mixed product's per-hectare dose through the pass's spray volume", () => {
    const perHa = ACARICIDE(0.8, { measure: UNITS.lHa, infection: MITE });
    expect(found({ mix: [perHa] })).toEqual([['DOSE_UNIT_INCOMPATIBLE', 'body.mix[0].measure']]);
    // 2,350 litres on the 2.35 ha of idcp 101: 1,000 L/ha, so 0.8 L/ha is 0.08 %.
    expect(found({ soup: '2350', mix: [perHa] })).toEqual([]);
    expect(found({ soup: '2350', mix: [{ ...perHa, dose: 1.5 }] })).toEqual([['DOSE_ABOVE_MAX', 'body.mix[0].dose']]);
  });

  it('checks the SIEX codes of a mixed product: its own pest and the unit of its total amount', () => {
    const bad = ACARICIDE(0.08, {
      infection: { ...MITE, id: '999999' },
      dt: '2',
      mdt: { ...UNITS.lHa, symbol: 'kg/ha' },
    });
    expect(found({ mix: [bad] }).filter(([c]) => c !== 'PEST_NOT_AUTHORIZED')).toEqual([
      ['UNKNOWN_SIEX_CODE', 'body.mix[0].infection.id'],
      ['MEASURE_MISMATCH', 'body.mix[0].mdt.symbol'],
    ]);
  });
});

describe("the OpenAPI document's example mix", () => {
  it('is a valid request, and lawful with the demo products on olive', () => {
    const parsed = phytoRequestSchema.safeParse({
      ...ruleContext().request,
      idcp: [OLIVE],
      infection: { type: 'TypeInfection', kind: 'enfermedad', id: '42', name: 'Negrilla' },
      mix: mixExample,
    });
    expect(parsed.error).toBeUndefined();
    expect(check(parsed.data!, { products: [microthiol(), demoPoltiglia()] }).violations).toEqual([]);
  });
});

describe('the pest of each product', () => {
  it("a mixed product without its own pest is judged against the record's", () => {
    expect(found({ infection: MILDEW, mix: [ACARICIDE()] })).toEqual([
      ['PEST_NOT_AUTHORIZED', 'body.mix[0].infection'],
    ]);
  });

  it('a fungicide against a disease and an acaricide against a mite: each checked against its own pest', () => {
    expect(found({ infection: MILDEW, mix: [ACARICIDE(0.08, { infection: MITE })] })).toEqual([]);
    // The main product stays judged against the record's pest, not the mixed one's.
    expect(found({ infection: MITE, mix: [ACARICIDE(0.08, { infection: MITE })] })).toEqual([
      ['PEST_NOT_AUTHORIZED', 'body.infection'],
    ]);
  });
});

describe('counts and intervals, per product', () => {
  it("a mixed product meets its own stored applications, not the main product's", () => {
    // FAMOLINS: 10 days apart; MICROTHIOL: 7. Eight days before, on idcp 101.
    const before = { 101: ['06-05-2026 10:00:00'] };
    expect(found({ mix: [FAMOLINS()] }, { mixHistory: { 'ES-19534': before } })).toEqual([
      ['MIN_INTERVAL', 'body.mix[0].subtype.code'],
    ]);
    expect(found({ mix: [FAMOLINS()] }, { history: before })).toEqual([]);
    // The acaricide once per campaign: a stored one this campaign is the limit.
    expect(
      found(
        { mix: [ACARICIDE(0.08, { infection: MITE })] },
        { mixHistory: { 'ES-25901': { 101: ['01-03-2026 10:00:00'] } } },
      ),
    ).toEqual([['MAX_APPLICATIONS', 'body.mix[0].subtype.code']]);
  });
});

describe('the request: products once, products × locations bounded', () => {
  const parse = (r: Partial<PhytoRequest>) => {
    const out = phytoRequestSchema.safeParse({ ...ruleContext().request, ...r }, { reportInput: true });
    return out.success ? [] : zodViolations('body', out.error);
  };
  const idcps = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1));

  it('a product twice in a record is 400 PRODUCT_REPEATED at the repeat', () => {
    const v = parse({ mix: [FAMOLINS(), item('ES-11179', 0.5, UNITS.percent), FAMOLINS()] });
    expect(v.map((x) => [x.code, x.path])).toEqual([
      ['PRODUCT_REPEATED', 'body.mix[1].subtype.code'],
      ['PRODUCT_REPEATED', 'body.mix[2].subtype.code'],
    ]);
    expect(statusOf(v)).toBe(400);
  });

  it(`products × idcp up to ${MAX_IDCP_PER_RECORD} is accepted; one location more is 400 MIX_TOO_LARGE`, () => {
    expect(parse({ idcp: idcps(MAX_IDCP_PER_RECORD) })).toEqual([]);
    expect(parse({ idcp: idcps(23), mix: [FAMOLINS()] })).toEqual([]);
    const over = parse({ idcp: idcps(24), mix: [FAMOLINS()] });
    expect(over.map((x) => [x.code, x.path])).toEqual([['MIX_TOO_LARGE', 'body.mix']]);
    expect(statusOf(over)).toBe(400);
    const fiveMore = Array.from({ length: 5 }, (_, i) => item(`ES-2590${i}`, 1, UNITS.lHa));
    expect(parse({ idcp: idcps(7), mix: fiveMore })).toEqual([]);
    expect(parse({ idcp: idcps(8), mix: fiveMore }).map((x) => x.code)).toEqual(['MIX_TOO_LARGE']);
  });

  it("a mixed product's total amount goes with its unit, as the record's", () => {
    expect(parse({ mix: [FAMOLINS(25, { dt: '50' })] }).map((x) => [x.code, x.path])).toEqual([
      ['INVALID_VALUE', 'body.mix[0].mdt'],
    ]);
  });

  it('at most 5 further products, at least one when mix is given', () => {
    const many = Array.from({ length: 6 }, (_, i) => item(`ES-2590${i}`, 1, UNITS.lHa));
    expect(parse({ mix: many }).map((x) => [x.code, x.path])).toEqual([['INVALID_VALUE', 'body.mix']]);
    expect(parse({ mix: [] }).map((x) => [x.code, x.path])).toEqual([['INVALID_VALUE', 'body.mix']]);
  });

  it('an amendment replacing every product of the largest mix is one transaction of at most 100 operations', () => {
    const sigpacs = Array.from({ length: 23 }, (_, i) => `46:213:0:0:12:45:${i + 1}`);
    const entry = (products: string[]): HistoryEntry => ({ products, day: '2026-05-14', sigpacs });
    const before = entry(['ES-11179', 'ES-19534']);
    const after = entry(['ES-19616', 'ES-25901']);
    expect(guardKeysOf(before, after)).toHaveLength(2 * 2 * 23);
    const guards = [...updatedDayCounts(new Map(), before, after)].map(([rowKey, doc]) => ({ rowKey, doc }));
    const record = check({ mix: [FAMOLINS()] });
    const built = buildRecord(
      1,
      ruleContext().treatment,
      microthiol(),
      record.resolution,
      ruleContext().farm,
      false,
      ruleContext().now,
    );
    const actions = changeActions(
      'h~x',
      {
        id: 1,
        write: { rowKey: 'r~new', product: 'ES-19616', appliedAtMs: 0, record: built },
        drop: 'r~old',
        pointer: { etag: '*', row: { exportState: registeredExportState(false) } as never, request: null },
        guards,
        version: { version: 2, date: '', client: '', kind: 'amended', changes: [] },
        idempotency: { hash: 'h', requestHash: 'r', outcome: 'current', answerJson: '' },
        touchesKeys: true,
      },
      RECORD_FORMAT,
    );
    expect(actions).toHaveLength(2 * 2 * 23 + 6);
    expect(actions.length).toBeLessThanOrEqual(100);
  });
});

describe('a mix in the record and in SIEX', () => {
  const request = (o: Partial<PhytoRequest> = {}): Partial<PhytoRequest> => ({
    infection: MILDEW,
    tj: [{ type: 'TypeJustification', id: '1', name: '' }],
    efficacy: { type: 'TypeEfficacy', id: '1', name: 'Buena', detail: '' },
    // By hand with a backpack sprayer: SIEX needs the equipment's identifier (issue 23, item 4).
    manual: true,
    machine: [{ type: 'Machine', id: '060303013', name: 'Mochila 16 L', roma: '', inspection: '', ref: 'MOCHILA-1' }],
    mix: [FAMOLINS(25, { batch: 'L-7' }), ACARICIDE(0.08, { infection: MITE, dt: '2', mdt: UNITS.lHa })],
    ...o,
  });
  const recordOf = (o: Partial<PhytoRequest> = {}) => {
    const ctx = ruleContext({ products: products(), request: request(o) });
    const { violations, resolution } = checkApplication(ctx);
    expect(violations).toEqual([]);
    return {
      record: buildRecord(7, ctx.treatment, ctx.product, resolution, ctx.farm, false, ctx.now),
      farm: ctx.farm,
    };
  };

  it('shows each mixed product with its catalogue data and safety period; the record has the longest', () => {
    const { record } = recordOf();
    expect(record.mix!.map((m) => [m.subtype.subtype.code, m.subtype.prod.name, m.dose, m.batch, m.seclimit])).toEqual([
      ['ES-19534', 'Fungicida', '25', 'L-7', '1'],
      ['ES-25901', 'Acaricida', '0.08', '', '21'],
    ]);
    expect(record.mix![1]).toMatchObject({ infection: MITE, dt: '2', mdt: UNITS.lHa });
    expect(record.mix![0].infection).toBeNull();
    expect(record.seclimit).toBe('21');
  });

  it('a record without mix has no mix member', () => {
    expect('mix' in recordOf({ mix: undefined }).record).toBe(false);
  });

  it('one TratamFito per crop and variety, one ProductosFito line per product, each problem once', () => {
    const { record } = recordOf({ mix: [FAMOLINS(), ACARICIDE(0.08, { infection: MITE })], idcp: VINE });
    const doc = farmIndexDoc();
    const farm = new FarmIndex({ ...doc, idcps: doc.idcps.map((e, i) => ({ ...e, dgc: `460000000${i}` })) });
    const mapped = mapRecord(record, 7, farm);
    if (!mapped.ok) throw new Error(mapped.missing.join('; '));
    expect(mapped.blocks).toHaveLength(1);
    const [block] = mapped.blocks;
    expect(block.ProductosFito).toEqual([
      { TipoProducto: 1, NumRegistro: '11179', Dosis: 0.5, Unidad: 14 },
      { TipoProducto: 1, NumRegistro: '19534', Dosis: 25, Unidad: 17 },
      { TipoProducto: 1, NumRegistro: '25901', Dosis: 0.08, Unidad: 14 },
    ]);
    // MICROTHIOL and FAMOLINS both against mildew: named once.
    expect(block.ProblematicaFito).toEqual({
      Enfermedades: { TipoEnfermedad: [148] },
      ArtropodosGasteropodos: { TipoPlaga: [18] },
    });
    const validate = cueValidator();
    expect(validate(cueDocument(farm, { TratamFito: mapped.blocks })) ? [] : validate.errors).toEqual([]);
  });
});
