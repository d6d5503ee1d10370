import { CropResolver, loadCropGroups } from '../../shared/catalog/crop-groups';
import { Product, productSchema, scopeOf } from '../../shared/catalog/product';
import { usesForCrop } from '../../shared/catalog/product-uses';
import { MapContext, mapRegisterProduct } from '../../shared/catalog/register/map-product';
import { RawUse } from '../../shared/catalog/register/raw-schema';
import { readScope, ScopeReading } from '../../shared/catalog/register/read-scope';
import { cabrio, microthiol, officialCodes, RawProductInput, registerProduct, use } from './catalog-fixtures';
import {
  actellic,
  citrashine,
  deccoZox,
  kintoPlus,
  kobiolEc,
  kobiolUlv,
  latitude,
  lumisena,
  maxim,
  redigoM,
  restrain,
  sight,
  smartfresh,
  undosedRows,
} from './register-scope-fixtures';

const ORANGE = '206';
const BANANA = '905';
const POTATO = '99';
const WHEAT = '1';
const BARLEY = '5';
/** The SIEX crops of PROD_VEGETAL's citrus fruit (2.1.1.: oranges, mandarins, lemons, limes, grapefruit). */
const CITRUS_FRUIT = [
  '204',
  '205',
  '206',
  '207',
  '208',
  '209',
  '210',
  '356',
  '430',
  '431',
  '432',
  '433',
  '434',
  '435',
  '912',
  '913',
  '915',
];

describe('register uses that are not field uses (issue 34, scopes of use)', () => {
  const codes = officialCodes();
  const crops = new CropResolver(loadCropGroups(), codes);
  const ctx: MapContext = { codes, crops, today: '20-10-2026' };
  const mapped = (p: RawProductInput) => mapRegisterProduct(registerProduct(p), ctx);
  const product = (p: RawProductInput): Product => {
    const result = mapped(p);
    expect(result.rejected).toBeUndefined();
    return result.product!;
  };
  const read = (row: Record<string, unknown>): ScopeReading =>
    readScope(row as unknown as RawUse, (name) => crops.isProduce(name));

  it("the real crop resolver reads harvested produce as growing crops: the register's product names resolve to field crops", () => {
    // The plural fallback turns product names into crop names: this is why the scope is read before the crop.
    expect(crops.resolve('Patatas')?.codes).toEqual([POTATO]);
    expect(crops.resolve('Plátanos')?.codes).toEqual([BANANA]);
    expect(crops.resolve('Ajos')?.codes).toEqual(['169']);
    expect(crops.resolve('Caquis')?.codes).toContain('213');
    // crop-groups.json no longer maps the produce "Frutos cítricos" onto the trees; PROD_VEGETAL gives its crops.
    expect(crops.resolve('Frutos cítricos')).toBeUndefined();
    expect(crops.resolveProduce('Frutos cítricos')).toEqual({ codes: CITRUS_FRUIT, by: 'produce' });
  });

  it('live bug: DECCO ZOX (ES-00477), a post-harvest drencher on "Frutos cítricos", authorises no field treatment of orange trees', () => {
    const p = product(deccoZox());
    expect(usesForCrop(p, ORANGE)).toEqual([]);
    expect(usesForCrop(p, ORANGE, 'postharvest')).toEqual([
      expect.objectContaining({ scope: 'postharvest', doseMin: 0, doseMax: 600, unit: { code: 64, symbol: 'cc/hL' } }),
    ]);
    expect(usesForCrop(p, BANANA, 'postharvest')).toEqual([expect.objectContaining({ doseMax: 120 })]);
    // its field uses are what they were: no scope written, stored as before scopes existed
    const barley = usesForCrop(p, BARLEY);
    expect(barley).toHaveLength(1);
    expect(barley[0]).not.toHaveProperty('scope');
  });

  describe('the decision order, on rows of the real export', () => {
    const reading = (scope: ScopeReading['scope'], by: ScopeReading['by']) => ({ scope, by });
    const row = (p: RawProductInput, cultivo: string) => p.uses.find((u) => u.Cultivo === cultivo)!;

    it('1-2: MetodoAplicacion "Ttos. Postcosecha" and "Ttos. Para semillas" decide first', () => {
      expect(read(row(deccoZox(), 'Frutos cítricos'))).toEqual(reading('postharvest', 'method'));
      expect(read(row(deccoZox(), 'Plátanos'))).toEqual(reading('postharvest', 'method'));
      expect(read(row(latitude(), 'Simiente de trigo'))).toEqual(reading('seed', 'method'));
      // ambiguous: "Semillas de girasol" is also a PROD_VEGETAL product (2.4.5, oilseed); the method says seed
      expect(read(row(lumisena(), 'Semillas de girasol'))).toEqual(reading('seed', 'method'));
    });

    it('3-4: premises by name, with no crop; packaging, substrates and quarantine goods are no farm matter', () => {
      expect(read(row(kobiolEc(), 'Almacenes'))).toEqual(reading('facility', 'premises'));
      const phostoxin = undosedRows.phostoxin();
      const of = (cultivo: string) => read(phostoxin.find((u) => u.Cultivo === cultivo)!);
      expect(of('Locales y almacenes')).toEqual(reading('facility', 'premises'));
      expect(of('Sustratos, enmiendas y materiales de acolchado')).toEqual(reading('not-farm', 'name'));
      expect(of('Tratamientos de cuarentena para productos no destinados al consumo humano ni animal')).toEqual(
        reading('not-farm', 'name'),
      );
      expect(read(undosedRows.profume()[1])).toEqual(reading('not-farm', 'name'));
    });

    it('5: seed lots and doses per seed mass are seed treatments, unless the agent is a store pest or growth regulation', () => {
      expect(read(row(redigoM(), 'Simiente de maíz'))).toEqual(reading('seed', 'seed-lot'));
      // ambiguous: KINTO PLUS names field crops; only "ml/100 kg de semillas" says seed
      expect(read(row(kintoPlus(), 'Cebada'))).toEqual(reading('seed', 'seed-lot'));
      // ambiguous: RESTRAIN's "Simiente de patatas" is seed potatoes kept in store with ethylene, not a seed dressing
      expect(read(row(restrain(), 'Simiente de patatas'))).toEqual(reading('postharvest', 'seed-lot'));
      expect(read(undosedRows.phostoxin().find((u) => u.Cultivo === 'Simientes')!)).toEqual(
        reading('postharvest', 'seed-lot'),
      );
    });

    it('6: harvested produce by its PROD_VEGETAL name or product group, whatever the method and Ambito say', () => {
      expect(read(row(citrashine(), 'Frutos cítricos'))).toEqual(reading('postharvest', 'produce'));
      // ambiguous: PHILABUSTER (24278) has no method, no conditions and ordinary fungi: only the produce says it
      expect(read(undosedRows.philabuster()[0])).toEqual(reading('postharvest', 'produce'));
      for (const cultivo of ['Caquis', 'Manzanas', 'Peras', 'Tomates'])
        expect(read(row(smartfresh(), cultivo))).toEqual(reading('postharvest', 'produce'));
      expect(read(row(sight(), 'Patatas'))).toEqual(reading('postharvest', 'produce'));
      expect(read(row(restrain(), 'Ajos'))).toEqual(reading('postharvest', 'produce'));
      // "Pulverización con tractor por ULV", Ambito "Agrario": still grain on a conveyor belt
      expect(read(row(actellic(), 'Granos de trigo'))).toEqual(reading('postharvest', 'produce'));
      expect(read(row(kobiolUlv(), 'Granos de leguminosas'))).toEqual(reading('postharvest', 'produce'));
      // ambiguous: K-OBIOL EC 25 treats the store (facility) and the grain in it (post-harvest)
      expect(read(row(kobiolEc(), 'Granos de cereales'))).toEqual(reading('postharvest', 'produce'));
      const phostoxin = undosedRows.phostoxin();
      expect(read(phostoxin.find((u) => u.Cultivo === 'Tabaco (producto cosechado)')!)).toEqual(
        reading('postharvest', 'produce'),
      );
      expect(read(undosedRows.profume()[2])).toEqual(reading('postharvest', 'produce'));
    });

    it('7: a store pest on a name that is no produce is post-harvest, by the agent alone', () => {
      const phostoxin = undosedRows.phostoxin();
      expect(read(phostoxin.find((u) => u.Cultivo === 'Cacao en grano')!)).toEqual(reading('postharvest', 'agent'));
      // ambiguous: "Nuez de cola" is a PROD_VEGETAL product and a PRODUCTOS crop: not produce by its name
      expect(crops.isProduce('Nuez de cola')).toBe(false);
      expect(read(phostoxin.find((u) => u.Cultivo === 'Nuez de cola')!)).toEqual(reading('postharvest', 'agent'));
    });

    it('8: everything else is a field use, the crop names of products of several scopes included', () => {
      expect(read(row(deccoZox(), 'Cebada'))).toEqual(reading('field', 'none'));
      expect(read(row(restrain(), 'Tomate'))).toEqual(reading('field', 'none'));
      const phostoxin = undosedRows.phostoxin();
      expect(read(phostoxin.find((u) => u.Cultivo === 'Frutales de pepita')!)).toEqual(reading('field', 'none'));
      // rodents in burrows on "any plant species": a field use, whose crop the import cannot resolve (reported)
      expect(read(phostoxin.find((u) => u.Cultivo === 'Especies vegetales')!)).toEqual(reading('field', 'none'));
      // ambiguous: MAXIM's post-harvest drencher is only in its conditions; its rows name growing orange trees
      for (const u of maxim().uses) expect(read(u)).toEqual(reading('field', 'none'));
      for (const u of [...microthiol().uses, ...cabrio().uses]) expect(read(u).scope).toBe('field');
    });

    it('keeps a crop named like a PROD_VEGETAL product a crop when PRODUCTOS or crop-groups.json names it so', () => {
      // "Menta" and "Té" are crops too; "Judías verdes" is a crop-groups.json field crop (fresh beans)
      for (const name of ['Menta', 'Té', 'Judías verdes']) {
        expect([name, crops.isProduce(name)]).toEqual([name, false]);
        expect(read(use(name, 'Pulgones', 1, 2, 'l/ha', '7')).scope).toBe('field');
      }
    });

    it("finds every register product group's crops in PROD_VEGETAL", () => {
      for (const group of [
        'Frutos cítricos',
        'Frutos de pepita',
        'Granos de cereales',
        'Granos de leguminosas',
        'Semillas oleaginosas',
        'Frutos secos',
        'Productos desecados',
        'Simientes',
      ]) {
        expect([group, (crops.resolveProduce(group)?.codes.length ?? 0) > 0]).toEqual([group, true]);
      }
      expect(crops.resolveProduce('Granos de cereales')?.codes).toEqual(expect.arrayContaining([WHEAT, BARLEY]));
      expect(crops.resolveProduce('Cacao en grano')).toBeUndefined();
    });
  });

  describe('the crops, doses and merging of scoped uses', () => {
    it('resolves post-harvest crops through the produce: citrus fruit, grain, potatoes, apples', () => {
      expect(product(citrashine()).uses).toEqual([
        expect.objectContaining({ scope: 'postharvest', cropTypeIds: CITRUS_FRUIT, doseMin: 1, doseMax: 1 }),
      ]);
      // five rows alike but for the grain: one post-harvest use with every grain's crops
      const grain = product(actellic()).uses;
      expect(grain).toHaveLength(1);
      expect(grain[0]).toMatchObject({ scope: 'postharvest', unit: { code: 52, symbol: 'ml/kg' }, doseMax: 0.008 });
      expect(grain[0].cropTypeIds).toEqual(expect.arrayContaining([WHEAT, BARLEY, '7', '8', '13']));
      expect(usesForCrop(product(sight()), POTATO, 'postharvest')).toHaveLength(1);
      expect(usesForCrop(product(smartfresh()), '109', 'postharvest')).toHaveLength(1);
    });

    it('stores premises uses with no crop, beside the post-harvest uses of the same product', () => {
      const p = product(kobiolEc());
      const facility = p.uses.filter((u) => scopeOf(u) === 'facility');
      expect(facility).toHaveLength(3);
      for (const u of facility)
        expect(u).toMatchObject({ cropTypeIds: [], doseMin: 4, doseMax: 6, unit: { code: 18 } });
      expect(p.uses.filter((u) => scopeOf(u) === 'postharvest')).toHaveLength(3);
      expect(productSchema.safeParse(p).success).toBe(true);
      // premises name no crop: a facility use is one for any crop asked about, and never a field use
      expect(usesForCrop(p, WHEAT, 'facility')).toHaveLength(3);
      expect(usesForCrop(p, WHEAT)).toEqual([]);
    });

    it('resolves seed crops through PROD_VEGETAL, else as crop names, with their doses per kilogram of seed', () => {
      expect(usesForCrop(product(latitude()), WHEAT, 'seed')).toEqual([
        expect.objectContaining({ doseMin: 2, doseMax: 2, unit: { code: 52, symbol: 'ml/kg' } }),
      ]);
      expect(usesForCrop(product(kintoPlus()), BARLEY, 'seed')).toEqual([
        expect.objectContaining({ doseMin: 1.2, doseMax: 1.5, unit: { code: 52, symbol: 'ml/kg' } }),
      ]);
      expect(usesForCrop(product(kintoPlus()), BARLEY)).toEqual([]);
      expect(usesForCrop(product(redigoM()), '4', 'seed')).toHaveLength(1);
      expect(usesForCrop(product(lumisena()), '33', 'seed')).toHaveLength(1);
    });

    it('never merges uses of different scopes, even when all else is alike', () => {
      const both = {
        ...restrain(),
        uses: [
          use('Patata', 'Reguladores de crecimiento', 10, 10, 'ppm', 'NO PROCEDE'),
          use('Patatas', 'Reguladores de crecimiento', 10, 10, 'ppm', 'NO PROCEDE'),
        ],
      };
      const uses = product(both).uses;
      expect(uses.map((u) => [scopeOf(u), u.cropTypeIds])).toEqual(
        expect.arrayContaining([
          ['field', [POTATO]],
          ['postharvest', [POTATO]],
        ]),
      );
      expect(uses).toHaveLength(2);
    });

    it('reports the uses it leaves out as no farm matter, and those it read by their agent alone', () => {
      const profume = {
        ...deccoZox(),
        uses: [
          use('Envases y embalajes', 'Halyomorpha halys', 1, 1, 'g/m3', 'NP'),
          use('Cacao en grano', 'Insectos de almacén', 1, 1, 'g/m3', 'NP'),
          use('Almacenes', 'Insectos de almacén', 1, 1, 'g/m3', 'NP'),
        ],
      };
      const result = mapped(profume);
      expect(result.issues).toEqual(
        expect.arrayContaining([
          { kind: 'not-farm', value: 'Envases y embalajes' },
          { kind: 'scope-by-agent', value: 'Cacao en grano / Insectos de almacén' },
          { kind: 'unmapped-crop', value: 'Cacao en grano' },
        ]),
      );
      expect(result.product?.uses.map(scopeOf)).toEqual(['facility']);
    });

    it("keeps RESTRAIN's greenhouse tomatoes a field use beside its stores of potatoes, garlic and seed potatoes", () => {
      const p = product(restrain());
      expect(usesForCrop(p, '197')).toHaveLength(1);
      expect(usesForCrop(p, POTATO)).toEqual([]);
      expect(usesForCrop(p, POTATO, 'postharvest')).toHaveLength(1);
      expect(usesForCrop(p, '169', 'postharvest')).toHaveLength(1);
    });
  });
});
