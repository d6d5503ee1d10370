import { SiexCodes } from '../catalog/siex-codes/siex-codes';
import { Violation } from '../domain/errors';
import { harvestViolation } from './errors';
import { FarmIndex, IdcpEntry } from '../farms/farm-index';
import { Harvest } from './harvest';

/**
 * What was harvested, and how much:
 * - the quantity is an amount: a mass, a volume or a count of units (UNIDADES_MEDIDA kg, t, L, m3, Unidades,
 *   Plantas...), never a rate such as t/ha, since CUE `Cosecha.Cantidad` is the block's harvest and the block states no
 *   area of its own to divide it by;
 * - the product (PROD_VEGETAL) is produce of the crop of every location: the catalogue names, for each product, the
 *   SIEX crops (PRODUCTOS codes) it comes from, and one row per product and crop (FEGA, Anexo VII); a harvest of
 *   "Naranjas" on a vine is not a record SIEX could hold (CUE `DGCs.ProductoCosechado` beside `DGCs.CodigoCultivo`).
 * Codes unknown to their catalogue are the code rules' (code-rules.ts), so they are not judged again here.
 */
export function produceRules(h: Harvest, codes: SiexCodes, farm: FarmIndex, entries: IdcpEntry[]): Violation[] {
  const violations: Violation[] = [];
  const unit = codes.units.get(h.unit.code);
  const d = unit?.dimension;
  if (
    unit &&
    !(d && d.per === null && (d.measure === 'mass' || d.measure === 'volume' || d.measure.startsWith('count')))
  )
    violations.push(
      harvestViolation(
        'HARVEST_QUANTITY_UNIT',
        'body.measure.code',
        `a harvest's quantity is a mass, a volume or a number of units (kg, t, L, m3, Unidades), not ${unit.symbol}`,
      ),
    );
  const product = codes.get('PROD_VEGETAL', h.product);
  const crops = new Set(product?.crops ?? []);
  if (product) {
    const others = [...new Set(entries.map((e) => farm.cropOf(e)).filter((c) => !crops.has(c.typecropId)))];
    if (others.length > 0)
      violations.push(
        harvestViolation(
          'HARVEST_PRODUCT_NOT_OF_CROP',
          'body.product',
          `${h.product} (${product.name}) is not produce of ${others.map((c) => `${c.typecropId} ${c.typecropName}`).join(', ')}, ` +
            `the crop of ${others.length === 1 ? 'a location' : 'locations'} harvested; PROD_VEGETAL gives it for ${[...crops].join(', ')}`,
        ),
      );
  }
  return violations;
}
