import { PhytoRequest } from '../../shared/phyto/wire';
import { checkApplication } from '../../shared/phyto/rules';
import { farmIndexDoc, ruleContext, testSiexCodes, UNITS, WHEAT } from '../helpers/phyto-fixtures';
import { importedProduct } from './catalog-fixtures';
import { actellic, deccoZox, kintoPlus } from './register-scope-fixtures';

/**
 * Issue 34: a treatment of growing crops is judged against the product's field uses only. The products are imported
 * from their real register rows by the register mapper; the registration rules then judge treatments (clock at
 * 15-05-2026 12:00 Madrid, applications on 14-05-2026 10:00 by a `basico` card).
 */
const codes = testSiexCodes();
const PRODUCTS = [deccoZox(), actellic(), kintoPlus()].map((raw) => importedProduct(raw, codes));
const ORANGES = '701';

/** The rules' farm, plus an orange grove (701). */
function farm() {
  const doc = farmIndexDoc();
  doc.crops.push({ cropId: 17, typecropId: '206', typecropName: 'NARANJO', code: 7001, name: 'NAVELINA' });
  doc.idcps.push({
    idcp: Number(ORANGES),
    crop: doc.crops.length - 1,
    parcelId: 34,
    parcelName: 'Huerto de naranjos',
    dimension: '2.00',
    ...{ prov: '46', town: '213', aggr: '0', zone: '0', pol: '34', parc: '1', enc: '1' },
  });
  return doc;
}

function codesOf(product: string, request: Partial<PhytoRequest>): string[] {
  const { code } = PRODUCTS.find((p) => p.name === product)!;
  return checkApplication(
    ruleContext({
      farm: farm(),
      products: PRODUCTS,
      request: { subtype: { type: 'TypePhytosanitary', name: product, code }, ...request },
    }),
  ).violations.map((v) => v.code);
}

describe('a field treatment counts only the field uses of the register (issue 34)', () => {
  it("refuses DECCO ZOX's packing-house drencher dose on orange trees, and takes its field dose on wheat", () => {
    // 600 ml/Hl on "Frutos cítricos" is a post-harvest use: it authorised this spray before uses had a scope
    expect(codesOf('DECCO ZOX', { dose: 600, measure: UNITS.ccHl, idcp: [ORANGES] })).toEqual(['PRODUCT_NOT_FOR_CROP']);
    expect(codesOf('DECCO ZOX', { dose: 1, measure: UNITS.lHa, idcp: [WHEAT] })).toEqual([]);
  });

  it('refuses a grain-store insecticide and a seed dressing on wheat growing in the field', () => {
    const perKg = { type: 'Measure', name: 'ml/kg', symbol: 'ml/kg', code: 52 } as const;
    expect(codesOf('ACTELLIC 50-E', { dose: 0.008, measure: perKg, idcp: [WHEAT] })).toEqual(['PRODUCT_NOT_FOR_CROP']);
    expect(codesOf('KINTO PLUS', { dose: 1.2, measure: perKg, idcp: [WHEAT] })).toEqual(['PRODUCT_NOT_FOR_CROP']);
  });
});
