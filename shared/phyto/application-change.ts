import { StoredProduct } from '../catalog/catalog-store';
import { FarmIndex } from '../farms/farm-index';
import { sigpacCode } from '../farms/sigpac';
import { guardRowKey } from '../records/record-keys';
import { DayCounts, dayCountsSchema, dayOf, withApplication } from './application-history';
import { RuleContext } from './rule-context';

import { productsOf } from '../plant-protection/product-part';
import { Treatment } from './treatment';

/**
 * What registration, amendment and deletion of a treatment share (phyto-kind.ts): the application date, the
 * enclosures a record touches, and its place in the per-product, per-enclosure history rows.
 */

/** The history rows as the records core hands them over (JSON documents it does not read): applications by day. */
export function dayCountsOf(rows: ReadonlyMap<string, unknown>): Map<string, DayCounts> {
  return new Map([...rows].map(([key, row]) => [key, dayCountsSchema.parse(row)]));
}

/**
 * One application of each of some products (a record's main product and its mix), on a day, over enclosures: what it
 * adds to (or takes from) their history, one row per product and enclosure.
 */
export interface HistoryEntry {
  products: string[];
  day: string;
  /** SIGPAC codes of the enclosures, each once. */
  sigpacs: string[];
}

/** The SIGPAC codes of the enclosures behind the known idcps among these, each once. */
function enclosuresOf(farm: FarmIndex, idcps: readonly number[]): string[] {
  return [...new Set(idcps.flatMap((i) => farm.byIdcp.get(i) ?? []).map((e) => sigpacCode(e)))];
}

/** The application a treatment stands for, in the history rules' terms. */
export function historyEntryOf(farm: FarmIndex, t: Treatment): HistoryEntry {
  return {
    products: productsOf(t).map((p) => p.code),
    day: dayOf(t.appliedAt),
    sigpacs: enclosuresOf(farm, t.idcp),
  };
}

export function guardKeysOf(...entries: (HistoryEntry | null)[]): string[] {
  return [
    ...new Set(entries.flatMap((e) => (e ? e.products.flatMap((p) => e.sigpacs.map((s) => guardRowKey(p, s))) : []))),
  ];
}

/**
 * The prior applications of `product` on each enclosure, as the rules judge a new one: what the history rows hold,
 * less `own` (the record being amended, which must not count against itself).
 */
function priorHistory(
  rows: ReadonlyMap<string, DayCounts>,
  product: string,
  sigpacs: string[],
  own: HistoryEntry | null,
): Map<string, DayCounts> {
  return new Map(
    sigpacs.map((s) => {
      const days = rows.get(guardRowKey(product, s)) ?? {};
      const mine = own && own.products.includes(product) && own.sigpacs.includes(s);
      return [s, mine ? withApplication(days, own.day, -1) : days];
    }),
  );
}

/**
 * What the rules see of the treatment's products: each one's register entry and its prior applications on the
 * enclosures, whether they came as a record's main product or in a mix, less `own` (the record being amended).
 */
export function productsContext(
  rows: ReadonlyMap<string, DayCounts>,
  register: ReadonlyMap<string, StoredProduct>,
  t: Treatment,
  sigpacs: string[],
  own: HistoryEntry | null,
): Pick<RuleContext, 'product' | 'history' | 'mixed'> {
  const code = t.product?.code;
  return {
    product: code === undefined ? undefined : register.get(code),
    history: code === undefined ? new Map<string, DayCounts>() : priorHistory(rows, code, sigpacs, own),
    ...(t.mix.length > 0
      ? {
          mixed: t.mix.map((m) => ({
            product: register.get(m.code),
            history: priorHistory(rows, m.code, sigpacs, own),
          })),
        }
      : {}),
  };
}

/** The history rows to write: `removed` taken off and `added` put on, each row once, in the order they are first met. */
export function updatedDayCounts(
  rows: ReadonlyMap<string, DayCounts>,
  removed: HistoryEntry | null,
  added: HistoryEntry | null,
): Map<string, DayCounts> {
  const out = new Map<string, DayCounts>();
  const apply = (entry: HistoryEntry | null, delta: 1 | -1) => {
    for (const product of entry?.products ?? [])
      for (const s of entry!.sigpacs) {
        const rowKey = guardRowKey(product, s);
        out.set(rowKey, withApplication(out.get(rowKey) ?? rows.get(rowKey) ?? {}, entry!.day, delta));
      }
  };
  apply(removed, -1);
  apply(added, 1);
  return out;
}
