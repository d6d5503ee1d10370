import { buildDemoDataset } from '../../local/demo/build-dataset';
import { RecordKind } from '../../shared/records/record-kind';
import { treatedSeedKind } from '../../shared/treated-seed/treated-seed-kind';
import { harvestFarm } from '../helpers/harvest-fixtures';
import { checkKindDocument, kindHarness } from '../helpers/kind-harness';
import { madrid, microthiol } from '../helpers/phyto-fixtures';

/**
 * Issue 34, item 4: the use of treated seed through the records core's port. Products are required when the seed was
 * treated on the farm or at a conditioning centre and optional when it was bought treated; each is judged against the
 * register's `seed` uses on the crop (a field-only product, or one for another crop, is 422 at its own path); the seed
 * is weighed; and the one `UsoSemillaTratada` block is valid against schema 3.11.4 and its descriptor table, the crop
 * as `Producto`. Clock: 15-05-2026 12:00 Madrid.
 */
const farm = harvestFarm();
const kind = treatedSeedKind as unknown as RecordKind<unknown, never>;
const h = kindHarness(treatedSeedKind, farm, madrid('15-05-2026 12:00:00'));
const latitude = buildDemoDataset().products.find((p) => p.code === 'ES-00080')!;
for (const p of [latitude, microthiol()]) h.reference.products.set(p.code, p);

type Body = Record<string, unknown>;

const ML_PER_KG = { type: 'Measure', name: 'ml/kg', symbol: 'ml/kg', code: 52 } as const;
const KG = { type: 'Measure', name: 'kg', symbol: 'kg', code: 5 } as const;
const LATITUDE = { type: 'TypePhytosanitary', name: 'LATITUDE XL', code: 'ES-00080' } as const;

/** 180 kg of wheat seed (PRODUCTOS 1) dressed on the farm with LATITUDE XL at 2 ml/kg (its seed use, 2 L/t). */
function dressing(o: Body = {}): Body {
  return {
    type: 'AgriTreatedSeed',
    date: '14-05-2026 10:00:00',
    treatment: { type: 'TypeSeedTreatment', id: '2' },
    crop: { type: 'TypeCrop', id: '1', name: 'TRIGO BLANDO' },
    lot: 'L-2026-117',
    quantity: 180,
    measure: KG,
    products: [{ subtype: LATITUDE, dose: 2, measure: ML_PER_KG }],
    efficacy: { type: 'TypeEfficacy', id: '1' },
    ...o,
  };
}

const treatment = (id: string) => ({ treatment: { type: 'TypeSeedTreatment', id } });

const checkDocument = (body: Record<string, unknown>) => checkKindDocument(farm, kind.cue, body);

describe('the treated seed record kind', () => {
  it('maps the wire body to its domain value and back, lists by crop, and keeps no history', () => {
    const request = kind.toRequest(dressing());
    expect(kind.fromStored(JSON.parse(JSON.stringify(kind.toStored(request))))).toEqual(request);
    expect(kind.toWire(request)).toMatchObject({ crop: { id: '1' }, lot: 'L-2026-117', products: [{ dose: 2 }] });
    expect(kind.listValue(request)).toBe('1');
    expect(kind.historyKeys(farm, request)).toEqual([]);
    const bought = kind.toRequest(dressing({ ...treatment('4'), products: undefined, lot: undefined }));
    expect(kind.toStored(bought)).not.toHaveProperty('products');
    expect(kind.toStored(bought)).not.toHaveProperty('lot');
  });

  it('requires the products of seed treated on the farm or at a centre, not of seed bought treated', () => {
    expect(h.codes(dressing())).toEqual([]);
    for (const id of ['2', '3'])
      expect(h.codes(dressing({ ...treatment(id), products: undefined }))).toEqual([
        'SEED_PRODUCTS_REQUIRED body.products',
      ]);
    for (const id of ['4', '5']) {
      expect(h.codes(dressing({ ...treatment(id), products: undefined }))).toEqual([]);
      // Named, they are judged all the same: SIEX's product line takes a product of the Spanish register.
      expect(h.codes(dressing({ ...treatment(id) }))).toEqual([]);
    }
    // TIPO_TRATAMIENTO has no code 1.
    expect(h.codes(dressing(treatment('1')))).toEqual(['UNKNOWN_SIEX_CODE body.treatment.id']);
  });

  it('judges each product against its seed uses on the crop, at the product’s own path', () => {
    const sulphur = {
      subtype: { type: 'TypePhytosanitary', name: 'MICROTHIOL', code: 'ES-11179' },
      dose: 2,
      measure: ML_PER_KG,
    };
    // The vine sulphur has field uses only; the wheat dressing has no use on maize seed (PRODUCTOS 4).
    expect(h.codes(dressing({ products: [{ subtype: LATITUDE, dose: 2, measure: ML_PER_KG }, sulphur] }))).toEqual([
      'PRODUCT_NOT_FOR_CROP body.products[1].subtype',
    ]);
    expect(h.codes(dressing({ crop: { type: 'TypeCrop', id: '4' } }))).toEqual([
      'PRODUCT_NOT_FOR_CROP body.products[0].subtype',
    ]);
    expect(h.judge(dressing({ crop: { type: 'TypeCrop', id: '4' } })).violations[0].message).toContain(
      'as a seed treatment',
    );
    // Its use, 2 L/t, at the boundary: 2 ml/kg is the dose, 2.1 ml/kg above it.
    expect(h.codes(dressing({ products: [{ subtype: LATITUDE, dose: 2.1, measure: ML_PER_KG }] }))).toEqual([
      'DOSE_ABOVE_MAX body.products[0].dose',
    ]);
    const unknown = { subtype: { ...LATITUDE, code: 'ES-99999' }, dose: 2, measure: ML_PER_KG };
    expect(h.codes(dressing({ products: [unknown] }))).toEqual(['PRODUCT_NOT_FOUND body.products[0].subtype.code']);
  });

  it('refuses seed not weighed, a product named twice, and a day outside the window', () => {
    const litres = { type: 'Measure', name: 'L', symbol: 'L', code: 4 };
    expect(h.codes(dressing({ measure: litres }))).toEqual(['TREATED_QUANTITY_UNIT body.measure.code']);
    const twice = { subtype: LATITUDE, dose: 2, measure: ML_PER_KG };
    expect(() => kind.toRequest(dressing({ products: [twice, twice] }))).toThrow(/already a product of this record/);
    expect(h.codes(dressing({ date: '16-05-2026 10:00:00' }))).toEqual(['DATE_IN_FUTURE body.date']);
    expect(h.codes(dressing({ date: '01-05-2026 10:00:00' }))).toEqual(['DATE_TOO_OLD body.date']);
  });

  it('maps to one UsoSemillaTratada block: the crop as Producto, the seed in kg, each product’s total', () => {
    const [block] = h.blocksOf(
      dressing({ quantity: 0.18, measure: { type: 'Measure', name: 't', symbol: 't', code: 6 } }),
    );
    expect(block).toEqual({
      key: 'seed',
      body: {
        Tratamiento: 2,
        Fecha: '14/05/2026',
        Producto: 1,
        NumeroLote: 'L-2026-117',
        Cantidad: 180,
        // 2 ml/kg of 180 kg: 0.36 L.
        ProductosFito: [{ TipoProducto: 1, NumRegistro: 'ES-00080', Cantidad: 0.36, Unidad: 4 }],
        Eficacia: 1,
      },
    });
    checkDocument(block.body);
  });

  it('maps seed bought treated without products, and holds back a record without the efficacy SIEX requires', () => {
    const bought = dressing({ ...treatment('5'), products: undefined, detail: 'Lote\nimportado' });
    const [block] = h.blocksOf(bought);
    expect(block.body).toEqual({
      Tratamiento: 5,
      Fecha: '14/05/2026',
      Producto: 1,
      NumeroLote: 'L-2026-117',
      Cantidad: 180,
      Eficacia: 1,
      Observaciones: 'Lote importado',
    });
    checkDocument(block.body);
    const record = h.recordOf(dressing({ efficacy: undefined }));
    expect(kind.cue.map(record as never, farm)).toEqual({ ok: false, missing: ['efficacy (Eficacia)'] });
    expect(treatedSeedKind.answer(record, farm, null)).toMatchObject({ exportable: false });
    // A dose per hectare says nothing of the total used.
    const perHa = { type: 'Measure', name: 'L/ha', symbol: 'L/ha', code: 18 } as const;
    const given = h.recordOf(dressing({ ...treatment('4'), products: undefined }));
    expect(kind.cue.map(given as never, farm)).toMatchObject({ ok: true });
    const total = treatedSeedKind.cue.map(
      { ...h.recordOf(dressing()), products: [{ subtype: LATITUDE, dose: 0.05, measure: perHa }] },
      farm,
    );
    expect(total).toEqual({
      ok: false,
      missing: [expect.stringContaining('products[0].dt: the total amount of ES-00080')],
    });
  });
});
