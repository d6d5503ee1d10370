import fc from 'fast-check';
import { PhytoRequest } from '../../shared/phyto/wire';
import { CropProduct } from '../../shared/api/catalog-schemas';
import { cropProductView } from '../../shared/catalog/catalogue-views';
import { productsForCrop } from '../../shared/catalog/crop-products';
import { Product, ProductUse } from '../../shared/catalog/product';
import { ReferenceData } from '../../shared/catalog/reference-data';
import { SiexCodes } from '../../shared/catalog/siex-codes/siex-codes';
import { parseDate } from '../../shared/domain/dates';
import { ErrorCode } from '../../shared/domain/errors';
import { PestKind } from '../../shared/domain/pest-kind';
import { convertDose } from '../../shared/domain/units';
import { checkApplication } from '../../shared/phyto/rules';
import { treatmentFromWire } from '../../shared/phyto/wire-mapper';
import { officialCatalogues } from './catalog-fixtures';
import { famolins, farmIndexDoc, microthiol, poltigliaUnlimited, ruleContext } from '../helpers/phyto-fixtures';
import { propertyRuns } from '../helpers/property-runs';

/**
 * Products for a crop (issue 14, items 1 and 7): what the catalogue lists is what registration accepts. The property
 * test drives the registration rules themselves (`checkApplication`, as the service runs them) on random registers,
 * crops, days and pests.
 */

/**
 * The official catalogues, with one change to test a unit SIEX withdraws: Unidades/ha (16) ends on 01-04-2026, after
 * which a use labelled in it is stated in Unidades/m² (15), the nearest unit of its kind in force.
 */
const codes = SiexCodes.from({
  ...officialCatalogues(),
  UNIDADES_MEDIDA: officialCatalogues().UNIDADES_MEDIDA!.map((u) =>
    u.code === '16' ? { ...u, until: '2026-04-01' } : u,
  ),
});

function reference(products: Product[]): ReferenceData {
  return { products: new Map(products.map((p) => [p.code, p])), applicators: new Map(), codes };
}

const day = (text: string) => parseDate(text)!;

/** The codes of the rules a catalogue listing speaks for: the product, its crop, pest, month, unit and dose. */
const LISTING_RULES = new Set<ErrorCode>([
  'PRODUCT_NOT_FOUND',
  'PRODUCT_NOT_IN_FORCE',
  'PRODUCT_NOT_FOR_CROP',
  'PEST_NOT_AUTHORIZED',
  'OUTSIDE_AUTHORIZED_PERIOD',
  'DOSE_ABOVE_MAX',
  'DOSE_BELOW_MIN',
  'DOSE_OUT_OF_RANGE',
  'DOSE_UNIT_INCOMPATIBLE',
  'MEASURE_MISMATCH',
]);

interface Pest {
  kind: PestKind;
  id: string;
  name: string;
}

/**
 * The violations of the listing's rules that a registration of `product` on a location of `crop`, at noon on `day`,
 * with this dose (and infection), draws: the whole rule set runs, as the service runs it; the other rules (applicator,
 * history, campaign, date window) are about other things.
 */
function refusals(
  product: Product,
  crop: string,
  dayText: string,
  dose: { value: number; code: number; symbol: string },
  pest?: Pest,
): string[] {
  const base = contextOn(crop, dayText);
  const request: PhytoRequest = {
    ...base.request,
    subtype: { type: 'TypePhytosanitary', name: product.name, code: product.code },
    dose: dose.value,
    measure: { type: 'Measure', name: '', symbol: dose.symbol, code: dose.code },
    ...(pest ? { infection: { type: 'TypeInfection', ...pest } } : {}),
  };
  return checkApplication({ ...base, treatment: treatmentFromWire(request), product })
    .violations.filter(
      (v) => LISTING_RULES.has(v.code) || (v.code === 'UNKNOWN_SIEX_CODE' && v.path === 'body.measure.code'),
    )
    .map((v) => v.code);
}

/** A rule context for a location of the crop at noon on the day (one per crop and day: a farm index is not free). */
const contexts = new Map<string, ReturnType<typeof ruleContext>>();

function contextOn(crop: string, dayText: string): ReturnType<typeof ruleContext> {
  const key = `${crop} ${dayText}`;
  let ctx = contexts.get(key);
  if (!ctx) {
    const doc = farmIndexDoc();
    ctx = {
      ...ruleContext({
        request: { dateApplication: `${dayText} 12:00:00`, idcp: ['101'] },
        farm: { ...doc, crops: doc.crops.map((c, i) => (i === 0 ? { ...c, typecropId: crop } : c)) },
      }),
      codes,
      codeInForce: codes.isValid.bind(codes),
    };
    contexts.set(key, ctx);
  }
  return ctx;
}

/**
 * Whether a registration with the use's largest dose passes the listing's rules, the dose stated in the use's own unit
 * or in any other unit of the catalogue it converts to.
 */
function passesWith(product: Product, use: ProductUse, crop: string, dayText: string, pest?: Pest): boolean {
  const own = codes.units.get(use.unit.code)!;
  return codes.units.list().some((unit) => {
    const value =
      unit.code === own.code
        ? use.doseMax
        : own.dimension && unit.dimension && convertDose(use.doseMax, own.dimension, unit.dimension);
    return (
      typeof value === 'number' &&
      refusals(product, crop, dayText, { value, code: unit.code, symbol: unit.symbol }, pest).length === 0
    );
  });
}

function listed(products: Product[], crop: string, dayText: string, pest?: Pest): CropProduct[] {
  return productsForCrop(reference(products), { cropId: crop, day: day(dayText), pest }).map((l) =>
    cropProductView(codes, l),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Arbitraries: registers of a few products over a few crops, pests, units and days around their boundaries.

const CROPS = ['101', '102', '1', '197'];
/** Ácaros (a group), Araña roja común (inside it), two diseases, and a pest the register names without a SIEX code. */
const PESTS: ProductUse['pest'][] = [
  { kind: 'plaga', code: 2, name: 'Ácaros' },
  { kind: 'plaga', code: 21, name: 'Araña roja común' },
  { kind: 'enfermedad', code: 148, name: 'Oídio de la vid' },
  { kind: 'enfermedad', code: 42, name: 'Negrilla' },
  { kind: 'plaga', code: 0, name: 'Bicho sin código' },
];
/** %, kg/ha, L/ha, g/hL, and Unidades/ha (withdrawn from 01-04-2026 in these catalogues). */
const UNITS = [14, 17, 18, 65, 16].map((code) => ({ code, symbol: codes.units.get(code)!.symbol }));
/** Days on both sides of the boundaries the register's dates take. */
const DAYS = [
  '31-12-2020',
  '01-01-2021',
  '29-02-2024',
  '31-03-2026',
  '01-04-2026',
  '15-07-2026',
  '31-07-2027',
  '01-08-2027',
];

const useArb: fc.Arbitrary<ProductUse> = fc
  .record({
    cropTypeIds: fc.uniqueArray(fc.constantFrom(...CROPS), { minLength: 1, maxLength: 3 }),
    pest: fc.constantFrom(...PESTS),
    doseMin: fc.integer({ min: 0, max: 50 }).map((n) => n / 10),
    span: fc.integer({ min: 1, max: 50 }).map((n) => n / 10),
    unit: fc.constantFrom(...UNITS),
    months: fc.option(fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 12 }), {
      nil: undefined,
    }),
  })
  .map(({ span, months, ...u }) => ({ ...u, doseMax: u.doseMin + span, ...(months ? { months } : {}) }));

const productArb = (code: string): fc.Arbitrary<Product> =>
  fc
    .record({
      registered: fc.constantFrom('01-01-2000', ...DAYS),
      expires: fc.constantFrom(...DAYS),
      lastUse: fc.constantFrom('', ...DAYS),
      noKnownValidDay: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
      uses: fc.array(useArb, { minLength: 1, maxLength: 4 }),
    })
    .map(({ noKnownValidDay, ...p }) => ({
      ...famolins(),
      ...p,
      code,
      name: `PRODUCTO ${code}`,
      ...(noKnownValidDay ? { noKnownValidDay: true as const, registerState: 'Cancelado' } : {}),
    }));

const registerArb = fc
  .integer({ min: 1, max: 5 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => productArb(`ES-9${String(i).padStart(4, '0')}`))));

const pestArb = fc.option(
  fc.constantFrom(...PESTS.filter((p) => p.code > 0)).map((p) => ({
    kind: p.kind,
    id: String(p.code),
    name: codes.name(p.kind === 'plaga' ? 'PLAGAS' : 'ENFERMEDADES', p.code)!,
  })),
  { nil: undefined },
);

describe('products for a crop agree with registration (item 7)', () => {
  it('lists a product exactly when a registration with a dose of one of its uses passes, and every listed use passes', () => {
    fc.assert(
      fc.property(
        registerArb,
        fc.constantFrom(...CROPS),
        fc.constantFrom(...DAYS),
        pestArb,
        (products, crop, dayText, pest) => {
          const answer = listed(products, crop, dayText, pest);
          for (const product of products) {
            const accepted = product.uses.some((u) => passesWith(product, u, crop, dayText, pest));
            const shown = answer.find((p) => p.code === product.code);
            expect({ code: product.code, listed: shown !== undefined }).toEqual({
              code: product.code,
              listed: accepted,
            });
            // The uses as listed, at both ends of their range, in the unit the answer states them in.
            for (const use of shown?.uses ?? []) {
              for (const value of [use.dose.min, use.dose.max].filter((v) => v > 0)) {
                const dose = { value, code: use.dose.unit.code, symbol: use.dose.unit.symbol };
                expect(refusals(product, crop, dayText, dose, pest)).toEqual([]);
              }
            }
          }
        },
      ),
      // fast-check's default of 100 runs: twice that made this file a third of `npm run test:unit`'s 10 s budget.
      { numRuns: propertyRuns(100) },
    );
  });
});

describe('products for a crop', () => {
  const vine = '102';
  const microthiolVine = microthiol({ uses: [microthiol().uses[0]] });

  it('lists products with a use for the crop, not those without', () => {
    const olive = listed([microthiol(), famolins()], '101', '15-05-2026').map((p) => p.code);
    expect(olive).toEqual(['ES-11179']);
    expect(listed([microthiol(), famolins()], vine, '15-05-2026').map((p) => p.code)).toEqual(['ES-19534', 'ES-11179']);
  });

  it('lists an expired product through its expiry day, not after; through its last-use day when it has one', () => {
    const expired = microthiol({ expires: '31-12-2020', lastUse: '' });
    expect(listed([expired], vine, '31-03-2026')).toEqual([]);
    const boundary = (expires: string, lastUse: string, d: string) =>
      listed([microthiol({ expires, lastUse, uses: [{ ...microthiol().uses[0], months: undefined }] })], vine, d)
        .length;
    expect([boundary('31-12-2020', '', '31-12-2020'), boundary('31-12-2020', '', '01-01-2021')]).toEqual([1, 0]);
    expect([
      boundary('31-12-2020', '30-06-2021', '30-06-2021'),
      boundary('31-12-2020', '30-06-2021', '01-07-2021'),
    ]).toEqual([1, 0]);
  });

  it('lists only uses that authorise the month of the day', () => {
    expect(listed([microthiolVine], vine, '31-03-2026')).toHaveLength(1); // months 3-9
    expect(listed([microthiolVine], vine, '01-10-2026')).toEqual([]);
  });

  it('with a pest, keeps the uses for it or for a group it belongs to (Ácaros, PLAGAS 6.1, for plaga:21, 6.1.3.4)', () => {
    const mites = { ...famolins().uses[0], pest: { kind: 'plaga' as const, code: 2, name: 'Ácaros' } };
    const product = famolins({ uses: [famolins().uses[0], mites] });
    const spiderMite = { kind: 'plaga' as const, id: '21', name: 'Araña roja común, Tetranychus spp.' };
    const [shown] = listed([product], vine, '15-05-2026', spiderMite);
    expect(shown.uses.map((u) => u.pests)).toEqual([[{ kind: 'plaga', code: 2, name: 'Ácaros' }]]);
    // Araña roja común's use does not cover its group, nor a disease with the same code
    const onlySpecies = famolins({ uses: [{ ...mites, pest: { kind: 'plaga', code: 21, name: 'Araña roja' } }] });
    expect(listed([onlySpecies], vine, '15-05-2026', { kind: 'plaga', id: '2', name: 'Ácaros' })).toEqual([]);
    expect(listed([product], vine, '15-05-2026', { kind: 'enfermedad', id: '21', name: 'x' })).toEqual([]);
  });

  it('shows uses that differ only by their pest as one use with every pest, with units and limits', () => {
    const base = poltigliaUnlimited().uses[0];
    const product = poltigliaUnlimited({
      uses: [base, { ...base, pest: { kind: 'enfermedad', code: 148, name: 'oídio (register words)' } }],
    });
    const [shown] = listed([product], vine, '15-05-2026');
    expect(shown.uses).toEqual([
      {
        dose: { min: base.doseMin, max: base.doseMax, unit: { code: 14, symbol: '%', name: 'porcentaje' } },
        pests: [
          { kind: base.pest.kind, code: base.pest.code, name: codes.name('ENFERMEDADES', base.pest.code) },
          { kind: 'enfermedad', code: 148, name: 'Oídio de la vid, Erysiphe necator' },
        ],
        months: null,
        maxApplications: null,
        minIntervalDays: null,
        preHarvestDays: base.safetyDays ?? null,
      },
    ]);
  });

  it('states a use labelled in a unit SIEX has withdrawn in the nearest unit of its kind in force', () => {
    const traps = famolins({
      uses: [
        {
          ...famolins().uses[0],
          months: undefined,
          doseMin: 20,
          doseMax: 40,
          unit: { code: 16, symbol: 'Unidades/ha' },
        },
      ],
    });
    expect(listed([traps], vine, '31-03-2026')[0].uses[0].dose).toEqual({
      min: 20,
      max: 40,
      unit: { code: 16, symbol: 'Unidades/ha', name: 'unidades por hectárea' },
    });
    expect(listed([traps], vine, '01-04-2026')[0].uses[0].dose).toEqual({
      min: 0.002,
      max: 0.004,
      unit: { code: 15, symbol: 'Unidades/m²', name: 'unidades por metro cuadrado' },
    });
  });

  it('searches the product and substance names, each word, without case or accents', () => {
    const search = (words: string) =>
      productsForCrop(reference([microthiol(), famolins()]), { cropId: vine, day: day('15-05-2026'), words }).map(
        (l) => l.product.code,
      );
    expect(search('microthiol')).toEqual(['ES-11179']);
    expect(search('AZUFRE dp')).toEqual(['ES-19534']);
    expect(search('azufre')).toEqual(['ES-19534', 'ES-11179']);
    expect(search('cobre')).toEqual([]);
  });
});
