import { Product } from '../product';
import { earlier, sortable } from './fields';

/**
 * What a newer register export changes in the stored products, decided purely from what is stored and what the file
 * says. A product withdrawn from the register is never deleted: it is ended (its dates stop on the withdrawal day, so
 * validation refuses new applications after it) and keeps everything else, and application records already stored
 * are not touched. Products already withdrawn by an earlier import are left alone, so each withdrawal is reported
 * once.
 */
export interface RefreshPlan {
  /** Everything to upsert: the products the file maps, plus the stored ones it ends. */
  write: Product[];
  /** Stored and in the register before; missing from this file. Ended on the import day. */
  missing: string[];
  /** Stored as in force; cancelled in this file. */
  cancelled: string[];
  /** Stored as withdrawn; in force again in this file. */
  reinstated: string[];
  /** Stored products not withdrawn before, for the mass-withdrawal guard. */
  storedInForce: number;
}

export function planRefresh(
  stored: ReadonlyMap<string, Product>,
  mapped: ReadonlyMap<string, Product>,
  /** Codes the file holds, including products it holds but that could not be mapped (those are not "missing"). */
  inFile: ReadonlySet<string>,
  today: string,
): RefreshPlan {
  const plan: RefreshPlan = {
    write: [...mapped.values()],
    missing: [],
    cancelled: [],
    reinstated: [],
    storedInForce: 0,
  };
  for (const [code, before] of stored) {
    if (!before.withdrawn) plan.storedInForce++;
    const now = mapped.get(code);
    if (now) {
      if (!before.withdrawn && now.withdrawn) plan.cancelled.push(code);
      if (before.withdrawn && !now.withdrawn) plan.reinstated.push(code);
    } else if (!inFile.has(code) && !before.withdrawn) {
      plan.missing.push(code);
      plan.write.push(endProduct(before, today));
    }
  }
  return plan;
}

/** The product as it stands once withdrawn on `day`: in force up to and including that day at the latest. */
export function endProduct(product: Product, day: string): Product {
  const expires = earlier(product.expires, day);
  const lastUse = product.lastUse ? earlier(product.lastUse, day) : '';
  return {
    ...product,
    expires,
    lastUse: lastUse && sortable(lastUse) > sortable(expires) ? lastUse : '',
    withdrawn: day,
  };
}
