import { DateTime } from 'luxon';
import { StoredApplicator, StoredProduct } from '../catalog/catalog-store';
import { SiexCodes } from '../catalog/siex-codes/siex-codes';
import { ProductUse } from '../catalog/product';
import { BackdateWindow } from '../domain/backdate-window';
import { Machine } from '../domain/equipment';
import { FarmIndex, IdcpEntry } from '../farms/farm-index';
import { DayCounts } from './application-history';
import { Pest, Treatment, Unit } from './treatment';

/** Everything the registration rules look at; the rules themselves do no I/O. */
export interface RuleContext {
  treatment: Treatment;
  /** The application time, in Madrid (the treatment's). */
  appliedAt: DateTime;
  now: DateTime;
  /** How long after the application it may be registered; null: no window (a correction that keeps the date). */
  window: BackdateWindow | null;
  farm: FarmIndex;
  product: StoredProduct | undefined;
  applicator: StoredApplicator | undefined;
  /** The card numbered as the request's advisor, if any has that number. */
  advisor: StoredApplicator | undefined;
  /** Prior applications of this product per enclosure (SIGPAC code), across campaigns; none stored: absent. */
  history: Map<string, DayCounts>;
  /** The same for each product of the request's mix, in its order (absent: no mix). */
  mixed?: readonly MixedProductContext[];
  /** True when a SIEX catalogue code exists and is in force on the date (catalogue name as in the SIEX files). */
  codeInForce: (catalogue: string, code: string, on: DateTime) => boolean;
  /** The SIEX catalogues: units with their dimensions, the pest groups. */
  codes: SiexCodes;
  /** The machines of the version an amendment replaces (absent: a registration), which keep what they were let by. */
  ownMachines?: readonly Machine[];
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

/**
 * One product of the pass as the product rules judge it, the main one or an item of the mix: each is judged as if it
 * were applied alone (Regulation (EC) 1107/2009 art. 55: each product used within the conditions of its own
 * authorisation and label; a mix does not widen them).
 */
export interface ProductApplication {
  /** True for an item of the mix. */
  mixed: boolean;
  code: string;
  dose: number;
  unit: Unit;
  /** The pest it is applied against: its own, else the record's. */
  infection: Pest | null;
  product: StoredProduct | undefined;
  history: Map<string, DayCounts>;
  /** The path of one of its own fields (`body.dose`, `body.mix[1].dose`). */
  own: (field: string) => string;
  /**
   * The path a violation about a field the pass shares (locations, date, applicator) takes: that field for the main
   * product, the item's product code for a mixed one, so the answer says which product broke its label.
   */
  shared: (field: string) => string;
}

/** The products of the pass: the main one first, then the mix in its order. */
export function productApplications(ctx: RuleContext): ProductApplication[] {
  const { treatment: t } = ctx;
  const main: ProductApplication = {
    mixed: false,
    code: t.product.code,
    dose: t.product.dose,
    unit: t.product.unit,
    infection: t.infection,
    product: ctx.product,
    history: ctx.history,
    own: (field) => `body.${field}`,
    shared: (field) => `body.${field}`,
  };
  const mixed = t.mix.map((item, i): ProductApplication => {
    const at = `body.mix[${i}]`;
    return {
      mixed: true,
      code: item.code,
      dose: item.dose,
      unit: item.unit,
      infection: item.infection ?? t.infection,
      product: ctx.mixed?.[i]?.product,
      history: ctx.mixed?.[i]?.history ?? new Map<string, DayCounts>(),
      own: (field) => `${at}.${field}`,
      shared: () => `${at}.subtype.code`,
    };
  });
  return [main, ...mixed];
}
