import { CropResolver, loadCropGroups } from '../../shared/catalog/crop-groups';
import { usesForCrop } from '../../shared/catalog/product-uses';
import { MapContext, mapRegisterProduct } from '../../shared/catalog/register/map-product';
import { officialCodes, registerProduct } from './catalog-fixtures';
import { deccoZox } from './register-scope-fixtures';

const ORANGE = '206';

describe('register uses that are not field uses (issue 34, scopes of use)', () => {
  const codes = officialCodes();
  const crops = new CropResolver(loadCropGroups(), codes);
  const ctx: MapContext = { codes, crops, today: '20-10-2026' };

  it("the real crop resolver reads harvested produce as growing crops: the register's product names resolve to field crops", () => {
    // crop-groups.json maps "Frutos cítricos" to the citrus trees, and the plural fallback turns product names into
    // crop names: this is why the scope must be read before the crop is resolved.
    expect(crops.resolve('Frutos cítricos')?.codes).toContain(ORANGE);
    expect(crops.resolve('Patatas')?.codes).toEqual(['99']);
    expect(crops.resolve('Plátanos')?.codes).toEqual(['905']);
    expect(crops.resolve('Ajos')?.codes).toEqual(['169']);
    expect(crops.resolve('Caquis')?.codes).toContain('213');
  });

  it.failing(
    'live bug: DECCO ZOX (ES-00477), a post-harvest drencher on "Frutos cítricos", authorises no field treatment of orange trees',
    () => {
      const product = mapRegisterProduct(registerProduct(deccoZox()), ctx).product!;
      expect(usesForCrop(product, ORANGE)).toEqual([]);
    },
  );
});
