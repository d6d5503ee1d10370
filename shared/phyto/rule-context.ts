import { DateTime } from 'luxon';
import { StoredProduct } from '../catalog/catalog-store';
import { ProductUse } from '../catalog/product';
import { BackdateWindow } from '../domain/backdate-window';
import { FarmIndex, IdcpEntry } from '../farms/farm-index';
import { PartContext, partApplications, ProductApplication } from '../plant-protection/product-part';
import { DayCounts } from './application-history';
import { Treatment } from './treatment';

/** Everything the registration rules look at; the rules themselves do no I/O. */
export interface RuleContext extends PartContext {
  treatment: Treatment;
  now: DateTime;
  /** How long after the application it may be registered; null: no window (a correction that keeps the date). */
  window: BackdateWindow | null;
  farm: FarmIndex;
  /** Prior applications of this product per enclosure (SIGPAC code), across campaigns; none stored: absent. */
  history: Map<string, DayCounts>;
  /** The same for each product of the request's mix, in its order (absent: no mix). */
  mixed?: readonly MixedProductContext[];
}

/** A product of the mix, as the rules see it: its register entry (undefined: not in it) and its prior history. */
interface MixedProductContext {
  product: StoredProduct | undefined;
  history: Map<string, DayCounts>;
}

/** What the rules resolved on the way, needed to build the stored record. */
export interface Resolution {
  entries: IdcpEntry[];
  /** Uses that authorize this application (crop, pest, dose, month), per crop code. */
  uses: ProductUse[];
  /** Each product of the mix, in the request's order, with the uses that authorize it (absent: no mix). */
  mixed?: { product: StoredProduct; uses: ProductUse[] }[];
}

/** A product of the pass as the phytosanitary rules judge it: with its prior applications on each enclosure. */
export interface PhytoApplication extends ProductApplication {
  history: Map<string, DayCounts>;
}

/** The products of the pass: the main one first, then the mix in its order. */
export function productApplications(ctx: RuleContext): PhytoApplication[] {
  const { treatment: t } = ctx;
  // A measure has no product to judge (treatment.ts): its pass is judged by the rules that are not a product's.
  if (!t.product) return [];
  const apps = partApplications(
    { ...t, product: t.product },
    ctx.product,
    t.mix.map((_, i) => ctx.mixed?.[i]?.product),
  );
  return apps.map((app, i) => ({
    ...app,
    history: i === 0 ? ctx.history : (ctx.mixed?.[i - 1]?.history ?? new Map<string, DayCounts>()),
  }));
}
