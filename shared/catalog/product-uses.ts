import { PestKind } from '../domain/pest-kind';
import { UseScope } from '../domain/use-scope';
import { Product, ProductUse, scopeOf } from './product';
import { normalizeName } from './siex-codes/names';
import { PestHierarchy } from './siex-codes/pest-hierarchy';

/**
 * Which of a product's uses authorise what: the predicates a treatment's registration rules judge an
 * application with, and the catalogue endpoints list products with, so that the two cannot disagree.
 */

/**
 * The uses of a scope for a SIEX crop code (PRODUCTOS): by default `field`, the uses a treatment of growing crops is
 * judged against, so that a post-harvest wax or a seed dressing never authorises spraying the crop. Stores and
 * premises have no crop: a `facility` use that names none is a use for whatever crop is asked about.
 */
export function usesForCrop(product: Pick<Product, 'uses'>, cropId: string, scope: UseScope = 'field'): ProductUse[] {
  return product.uses.filter(
    (u) =>
      scopeOf(u) === scope && (u.cropTypeIds.includes(cropId) || (scope === 'facility' && u.cropTypeIds.length === 0)),
  );
}

/** Whether the use authorises an application in this month (1-12): a use without months authorises every month. */
export function authorisesMonth(use: ProductUse, month: number): boolean {
  return !use.months || use.months.includes(month);
}

/** A pest treated, as a request names it: its catalogue kind, its SIEX code, and its name in words. */
export interface PestTreated {
  kind: PestKind;
  id: string;
  name: string;
}

/**
 * The uses against the pest treated: a use for the pest itself or for a group it belongs to (a use against Ácaros,
 * PLAGAS 6.1, covers Araña roja común, 6.1.3.4). A use whose pest SIEX has no code for (stored with code 0 and the
 * register's words) covers only a pest named with the same words; when no coded use matches, those uses judge the
 * application by their dose and months.
 */
export function usesAgainst(uses: ProductUse[], pest: PestTreated, pests: PestHierarchy): ProductUse[] {
  const treated = { kind: pest.kind, code: Number(pest.id) };
  const coded = uses.filter((u) => u.pest.code > 0 && pests.covers({ kind: u.pest.kind, code: u.pest.code }, treated));
  if (coded.length > 0) return coded;
  const named = normalizeName(pest.name);
  return named ? uses.filter((u) => u.pest.code === 0 && normalizeName(u.pest.name) === named) : [];
}
