import { DateTime } from 'luxon';
import { formatDate } from '../domain/dates';
import { StoredProduct } from './catalog-store';
import { UseScope } from '../domain/use-scope';
import { ProductUse } from './product';
import { productStandingOn } from './product-state';
import { authorisesMonth, PestTreated, usesAgainst, usesForCrop } from './product-uses';
import { ReferenceData } from './reference-data';
import { normalizeName } from './siex-codes/names';
import { SiexCodes } from './siex-codes/siex-codes';
import { inPlacedUnit } from './unit-catalogue';

/** A product a registration would accept, with the uses that would accept it. */
export interface ListedProduct {
  product: StoredProduct;
  uses: ProductUse[];
}

export interface CropProductsFilter {
  /** SIEX crop code (PRODUCTOS). */
  cropId: string;
  /** The application day, in Madrid. */
  day: DateTime;
  /** Only uses that authorise this pest, groups included. */
  pest?: PestTreated;
  /** Words the product's or its substance's name must each contain (compared without case or accents). */
  words?: string;
  /** What the registration treats (default `field`): only uses of that scope are listed. */
  scope?: UseScope;
}

/**
 * The products a registration for the crop on the day would accept, by name: in force on the day (grace period
 * included), with a use for the crop that authorises the day's month (and the pest, when one is asked for). These are
 * the predicates the registration rules judge with (shared/catalog/product-uses.ts, product-state.ts, the unit in
 * force); a dose inside a listed use's range, in its unit, then passes the product, crop, month and dose rules (the
 * property test in test/unit/catalog-crop-products.test.ts holds the two together).
 */
export function productsForCrop(data: ReferenceData, filter: CropProductsFilter): ListedProduct[] {
  const words = filter.words === undefined ? [] : normalizeName(filter.words).split(' ');
  // The day as text: comparing it with each product's dates is string work, not a date conversion per product.
  const day = formatDate(filter.day);
  const out: ListedProduct[] = [];
  for (const entry of cropIndex(data, filter.cropId, filter.scope ?? 'field')) {
    if (!words.every((w) => entry.words.includes(w))) continue;
    if (!productStandingOn(entry.product, day).inForce) continue;
    const uses = usesAccepting(entry.uses, filter.day, filter.pest, data.codes);
    if (uses.length > 0) out.push({ product: entry.product, uses });
  }
  return out;
}

/**
 * Among a product's uses for a crop, those that authorise an application on the day (against the pest, when given),
 * each with its dose in a unit a registration of that day takes.
 */
function usesAccepting(
  forCrop: ProductUse[],
  day: DateTime,
  pest: PestTreated | undefined,
  codes: SiexCodes,
): ProductUse[] {
  const forPest = pest ? usesAgainst(forCrop, pest, codes.pests) : forCrop;
  return forPest.flatMap((u) => {
    const stated = authorisesMonth(u, day.month) ? inUnitOfTheDay(u, day, codes) : undefined;
    return stated ? [stated] : [];
  });
}

/**
 * A use with its dose in a unit in force on the day, as registration requires of `measure` (UNIDADES_MEDIDA). The
 * register import places every use on a unit in force, so this is its own unit unless SIEX has withdrawn it since:
 * then the range is stated in the nearest unit of the same kind in force (which registration converts back to the
 * label's), and a use whose unit has no such unit is left out, since no registration could state its dose.
 */
function inUnitOfTheDay(use: ProductUse, day: DateTime, codes: SiexCodes): ProductUse | undefined {
  if (codes.isValid('UNIDADES_MEDIDA', use.unit.code, day)) return use;
  const placed = codes.units.place(codes.units.get(use.unit.code)?.symbol ?? use.unit.symbol);
  if (!placed) return undefined;
  return {
    ...use,
    unit: { code: placed.unit.code, symbol: placed.unit.symbol },
    doseMin: inPlacedUnit(use.doseMin, placed),
    doseMax: inPlacedUnit(use.doseMax, placed),
  };
}

interface CropEntry {
  product: StoredProduct;
  /** Its uses for the crop. */
  uses: ProductUse[];
  /** Its name and substance, in comparison form. */
  words: string;
}

/**
 * Per reference data loaded (a new load is a new object, so nothing stale outlives it), the products with a use for
 * each crop and scope asked about, sorted by name: a request then looks only at the products of its crop, not at
 * 60,000 uses.
 */
const indexes = new WeakMap<ReferenceData, Map<string, CropEntry[]>>();

function cropIndex(data: ReferenceData, cropId: string, scope: UseScope): CropEntry[] {
  let byCrop = indexes.get(data);
  if (!byCrop) indexes.set(data, (byCrop = new Map<string, CropEntry[]>()));
  let entries = byCrop.get(`${scope}:${cropId}`);
  if (!entries) {
    entries = [];
    for (const product of data.products.values()) {
      const uses = usesForCrop(product, cropId, scope);
      if (uses.length > 0) {
        entries.push({ product, uses, words: normalizeName(`${product.name} ${product.substance.name}`) });
      }
    }
    entries.sort((a, b) => compareText(a.product.name, b.product.name) || compareText(a.product.code, b.product.code));
    byCrop.set(`${scope}:${cropId}`, entries);
  }
  return entries;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
