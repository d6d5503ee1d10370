import { PhytoRequest } from '../../shared/phyto/wire';
import { Product, ProductUse } from '../../shared/catalog/product';
import { checkApplication } from '../../shared/phyto/rules';
import {
  ContextOptions,
  farmIndexDoc,
  OLIVE,
  ProductRequest,
  ruleContext,
  testSiexCodes,
  WHEAT,
} from '../helpers/phyto-fixtures';
import {
  azufreCancelled,
  bordonex,
  checkmate,
  famolins,
  importedProduct,
  microthiol,
  penshar,
  RawProductInput,
  topik,
} from './catalog-fixtures';

/**
 * Issue 12's findings on products of the official register: each product is built from its register rows in the
 * official export format (catalog-fixtures.ts) and imported by the register mapper, as `import-products` imports it;
 * then the registration rules judge treatments at the label's limits (clock at 15-05-2026 12:00 Madrid, applications
 * on 14-05-2026 10:00 by a `basico` card).
 */
const codes = testSiexCodes();
const imported = (raw: RawProductInput): Product => importedProduct(raw, codes);

const PRODUCTS = [famolins(), topik(), microthiol(), checkmate(), bordonex(), penshar()].map(imported);

/** The rules' farm, plus an almond orchard (401), clementines (501) and lettuce (601). */
function farm() {
  const doc = farmIndexDoc();
  const at = (pol: string) => ({ prov: '46', town: '213', aggr: '0', zone: '0', pol, parc: '1', enc: '1' });
  doc.crops.push(
    { cropId: 14, typecropId: '104', typecropName: 'ALMENDRO', code: 4001, name: 'MARCONA' },
    { cropId: 15, typecropId: '204', typecropName: 'CLEMENTINA', code: 5001, name: 'CLEMENULES' },
    { cropId: 16, typecropId: '155', typecropName: 'LECHUGA', code: 6001, name: 'ROMANA' },
  );
  doc.idcps.push(
    { idcp: 401, crop: 3, parcelId: 31, parcelName: 'Almendral', dimension: '3.00', ...at('31') },
    { idcp: 501, crop: 4, parcelId: 32, parcelName: 'Huerto', dimension: '1.50', ...at('32') },
    { idcp: 601, crop: 5, parcelId: 33, parcelName: 'Bancal', dimension: '0.40', ...at('33') },
  );
  return doc;
}

const measure = (unitCode: number): ProductRequest['measure'] => {
  const unit = codes.units.get(unitCode)!;
  return { type: 'Measure', name: unit.name, symbol: unit.symbol, code: unitCode };
};

/** The rules' verdict on `product` (by name, among `o.products` or the imported ones) with `request`'s fields. */
function outcome(product: string, request: Partial<PhytoRequest>, o: Omit<ContextOptions, 'request'> = {}) {
  const products = o.products ?? PRODUCTS;
  const { code } = products.find((p) => p.name === product)!;
  return checkApplication(
    ruleContext({
      farm: farm(),
      ...o,
      products,
      request: { subtype: { type: 'TypePhytosanitary', name: product, code }, ...request },
    }),
  );
}

const codesOf = (product: string, request: Partial<PhytoRequest>, o: Omit<ContextOptions, 'request'> = {}) =>
  outcome(product, request, o).violations.map((v) => v.code);

const infection = (kind: NonNullable<PhytoRequest['infection']>['kind'], id: string, name = '') => ({
  type: 'TypeInfection' as const,
  kind,
  id,
  name,
});

describe('finding 1: every SIEX unit, and the register units SIEX has no code for', () => {
  it('imports TOPIK 170-200 cc/ha as 0.17-0.2 L/ha, so 0.2 L/ha on wheat passes (it was DOSE_UNIT_INCOMPATIBLE)', () => {
    const topikProduct = PRODUCTS.find((p) => p.name === 'TOPIK 24 EC')!;
    expect(topikProduct.uses.find((u) => u.pest.code === 141)).toMatchObject({
      doseMin: 0.17,
      doseMax: 0.2,
      unit: { code: 18, symbol: 'L/ha' },
    });
    const wildOats = infection('mala_hierba', '141', 'Avenas locas, Avena spp.');
    const onWheat = (dose: number) =>
      codesOf('TOPIK 24 EC', { dose, measure: measure(18), idcp: [WHEAT], infection: wildOats });
    expect(onWheat(0.2)).toEqual([]);
    expect(onWheat(0.17)).toEqual([]);
    expect(onWheat(0.201)).toEqual(['DOSE_ABOVE_MAX']);
    expect(onWheat(0.169)).toEqual(['DOSE_BELOW_MIN']);
  });

  it('accepts a dose in Difusores/ha (22) against CheckMate CRS, 450 diffusers per hectare, and the same in Difusores/m2', () => {
    const onCitrus = (dose: number, unit: number) =>
      codesOf('CheckMate CRS', { dose, measure: measure(unit), idcp: ['501'] });
    expect(onCitrus(450, 22)).toEqual([]);
    expect(onCitrus(0.045, 61)).toEqual([]);
    expect(onCitrus(451, 22)).toEqual(['DOSE_ABOVE_MAX']);
    // traps are not diffusers
    expect(onCitrus(450, 24)).toEqual(['DOSE_UNIT_INCOMPATIBLE']);
  });

  it('accepts g/m2 (80) against BORDONEX, whose label says 0.375-0.5 g/m2 and 3.75-5 Kg/ha: the same dose', () => {
    const onOlive = (dose: number, unit: number) =>
      codesOf('BORDONEX', { dose, measure: measure(unit), idcp: [OLIVE] });
    expect(onOlive(0.5, 80)).toEqual([]);
    expect(onOlive(5, 17)).toEqual([]);
    expect(onOlive(5000, 49)).toEqual([]);
    expect(onOlive(0.0005, 60)).toEqual([]);
    expect(onOlive(0.51, 80)).toEqual(['DOSE_ABOVE_MAX']);
    expect(onOlive(3.7, 17)).toEqual(['DOSE_BELOW_MIN']);
  });

  it('accepts every UNIDADES_MEDIDA code in force as the unit of a dose in that very unit, with a true message otherwise', () => {
    const units = codes.units.list('2026-05-14');
    expect(units.length).toBeGreaterThan(70);
    for (const unit of units) {
      const use: ProductUse = {
        cropTypeIds: ['102'],
        pest: { code: 148, kind: 'enfermedad', name: 'Oídio de la vid, Erysiphe necator' },
        doseMin: 1,
        doseMax: 2,
        unit: { code: unit.code, symbol: unit.symbol },
      };
      const product = { ...PRODUCTS.find((p) => p.name === 'FAMOLINS 80%')!, uses: [use] };
      const result = outcome('FAMOLINS 80%', { dose: 1.5, measure: measure(unit.code) }, { products: [product] });
      expect([unit.symbol, result.violations]).toEqual([unit.symbol, []]);
    }
    // a unit of another kind is refused as such, never as "not a unit SIEX accepts"
    const [v] = outcome('FAMOLINS 80%', { dose: 25, measure: measure(22) }).violations;
    expect(v).toEqual({
      code: 'DOSE_UNIT_INCOMPATIBLE',
      path: 'body.measure',
      message: 'Difusores/ha cannot be compared with the authorized kg/ha on VIÑA',
    });
  });

  it('refuses a unit code SIEX does not have as an unknown code, naming the catalogue', () => {
    expect(outcome('FAMOLINS 80%', { dose: 25, measure: { ...measure(17), code: 999 } }).violations).toEqual([
      {
        code: 'UNKNOWN_SIEX_CODE',
        path: 'body.measure.code',
        message: '999 is not a code of the SIEX catalogue UNIDADES_MEDIDA in force on that date',
      },
    ]);
  });
});

describe('finding 10: a per-hectare dose with the spray volume compares with a concentration label, and the reverse', () => {
  // vine enclosure 101 is 2.35 ha: 2,350 litres of mixture on it are 1,000 L/ha
  it('MICROTHIOL at 8 kg/ha in 1,000 L/ha is 0.8 %, inside 0.25-0.8 % (it was DOSE_UNIT_INCOMPATIBLE)', () => {
    const onVine = (dose: number, extra: Partial<PhytoRequest> = { soup: '2350' }) =>
      codesOf('MICROTHIOL SPECIAL DISPERSS', { dose, measure: measure(17), ...extra });
    expect(onVine(8)).toEqual([]);
    expect(onVine(8000, { soup: '2350', measure: measure(49) })).toEqual([]);
    expect(onVine(8.1)).toEqual(['DOSE_ABOVE_MAX']);
    expect(onVine(2.4)).toEqual(['DOSE_BELOW_MIN']);
    // the volume is per treated hectare: 1,175 litres on half the enclosure is 1,000 L/ha again
    expect(onVine(8, { soup: '1175', st: '1.175', mst: measure(2) })).toEqual([]);
    expect(onVine(8, { soup: '1175' })).toEqual(['DOSE_ABOVE_MAX']);
    // without the volume the two cannot be compared, and the message says what is missing
    const [v] = outcome('MICROTHIOL SPECIAL DISPERSS', { dose: 8, measure: measure(17) }).violations;
    expect(v).toMatchObject({ code: 'DOSE_UNIT_INCOMPATIBLE', message: expect.stringContaining('give soup') });
  });

  it('FAMOLINS (20-30 Kg/ha) at 2.5 % in 1,000 L/ha is 25 kg/ha', () => {
    const onVine = (dose: number) => codesOf('FAMOLINS 80%', { dose, measure: measure(14), soup: '2350' });
    expect(onVine(2.5)).toEqual([]);
    expect(onVine(3.1)).toEqual(['DOSE_ABOVE_MAX']);
    expect(codesOf('FAMOLINS 80%', { dose: 2500, measure: measure(65), soup: '2350' })).toEqual([]);
  });
});

describe('finding 2: a use for a pest group covers every subgroup and species under it', () => {
  const onVine = (i: ReturnType<typeof infection>) =>
    codesOf('FAMOLINS 80%', { dose: 25, measure: measure(17), infection: i });

  it('FAMOLINS against Ácaros (PLAGAS 6.1) covers Araña roja común (21, 6.1.3.4): it was PEST_NOT_AUTHORIZED', () => {
    expect(PRODUCTS.find((p) => p.name === 'FAMOLINS 80%')!.uses.map((u) => u.pest.code)).toEqual(
      expect.arrayContaining([2, 148]),
    );
    expect(onVine(infection('plaga', '21', 'Araña roja común'))).toEqual([]);
    expect(onVine(infection('plaga', '17', 'Ácaros tetraníquidos'))).toEqual([]);
    expect(onVine(infection('plaga', '2', 'Ácaros'))).toEqual([]);
    // not a mite: thrips (6.2.3); nor the whole of the arthropods (6), which is wider than the label
    expect(onVine(infection('plaga', '189', 'Trips'))).toEqual(['PEST_NOT_AUTHORIZED']);
    expect(onVine(infection('plaga', '1', 'Artrópodos'))).toEqual(['PEST_NOT_AUTHORIZED']);
  });

  it('PENSHAR against Dicotiledóneas anuales (MALAS_HIERBAS 1.1.1) covers Amarantáceas anuales (4, 1.1.1.1)', () => {
    const onLettuce = (i: ReturnType<typeof infection>) =>
      codesOf('PENSHAR 40% SC', { dose: 3, measure: measure(18), idcp: ['601'], infection: i });
    expect(onLettuce(infection('mala_hierba', '4', 'Amarantáceas anuales'))).toEqual([]);
    expect(onLettuce(infection('mala_hierba', '141', 'Avenas locas'))).toEqual(['PEST_NOT_AUTHORIZED']);
  });

  it('works alike for diseases and growth regulators (a use for Oídios 8.30, for regulators 12)', () => {
    const groupUse = (pest: ProductUse['pest']): ProductUse => ({
      cropTypeIds: ['102'],
      pest,
      doseMin: 0.25,
      doseMax: 0.8,
      unit: { code: 14, symbol: '%' },
    });
    const product = {
      ...PRODUCTS.find((p) => p.name === 'MICROTHIOL SPECIAL DISPERSS')!,
      uses: [
        groupUse({ code: 139, kind: 'enfermedad', name: 'Oídios, Erysiphaceae' }),
        groupUse({ code: 1, kind: 'regulador', name: 'Reguladores de crecimiento' }),
      ],
    };
    const against = (i: ReturnType<typeof infection>) =>
      codesOf('MICROTHIOL SPECIAL DISPERSS', { dose: 0.5, infection: i }, { products: [product] });
    expect(against(infection('enfermedad', '148', 'Oídio de la vid'))).toEqual([]);
    expect(against(infection('regulador', '3', 'Adelanto maduración del cultivo'))).toEqual([]);
    // the same number in another catalogue is another thing: PLAGAS 3 is a mite, not a regulator
    expect(against(infection('plaga', '3'))).toEqual(['PEST_NOT_AUTHORIZED']);
    expect(against(infection('enfermedad', '42', 'Negrilla'))).toEqual(['PEST_NOT_AUTHORIZED']);
  });
});

describe('finding 7: a register use whose pest SIEX has no code', () => {
  const onAlmond = (i?: ReturnType<typeof infection>) =>
    codesOf('PENSHAR 40% SC', { dose: 0.4, measure: measure(14), idcp: ['401'], ...(i ? { infection: i } : {}) });

  it('PENSHAR\'s "Malas hierbas anuales de los frutales" (code 0) no longer authorises a mite treatment', () => {
    const nuts = PRODUCTS.find((p) => p.name === 'PENSHAR 40% SC')!.uses.find((u) => u.cropTypeIds.includes('104'))!;
    expect(nuts.pest).toEqual({ code: 0, kind: 'mala_hierba', name: 'Malas hierbas anuales de los frutales' });
    expect(onAlmond(infection('plaga', '21', 'Araña roja común'))).toEqual(['PEST_NOT_AUTHORIZED']);
    expect(onAlmond(infection('mala_hierba', '1', 'Malas hierbas anuales de los frutales'))).toEqual([]);
    expect(onAlmond()).toEqual([]);
  });
});

describe('finding 6: a product the register cancelled without a date', () => {
  it('is refused on every day, even within the week before the import that saw it cancelled (it was accepted)', () => {
    // imported on 01-05-2026; the rule used to end it that day, so a treatment of 28-04-2026 passed
    const cancelled = imported({ ...azufreCancelled(), cancelled: '', saleEnd: '' });
    const on = (date: string) =>
      outcome(
        'AZUFRE LIQUIDO 800 G/L',
        { dose: 4, measure: measure(18), dateApplication: date },
        { products: [cancelled], now: '01-05-2026 12:00:00' },
      ).violations;
    expect(on('28-04-2026 10:00:00')).toEqual([
      {
        code: 'PRODUCT_NOT_IN_FORCE',
        path: 'body.subtype.code',
        message:
          'ES-24138 on 28-04-2026 is listed by the register as Cancelado with no day it was still valid on: it cannot be used on any day',
      },
    ]);
    // with its cancellation day, it is in force up to that day
    const dated = imported({ ...azufreCancelled(), cancelled: '2026/04/29', saleEnd: '' });
    const onDated = (date: string) =>
      codesOf(
        'AZUFRE LIQUIDO 800 G/L',
        { dose: 4, measure: measure(18), dateApplication: date },
        { products: [dated], now: '01-05-2026 12:00:00' },
      );
    expect(onDated('29-04-2026 10:00:00')).toEqual([]);
    expect(onDated('30-04-2026 10:00:00')).toEqual(['PRODUCT_NOT_IN_FORCE']);
  });
});
