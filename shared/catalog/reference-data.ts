import { RefreshingValue } from '../cache/refreshing-value';
import { TableStore } from '../store/tables';
import { CatalogStore, StoredApplicator, StoredProduct } from './catalog-store';
import { SiexCodes } from './siex-codes/siex-codes';
import { loadSiexCodes } from './siex-codes/store';

/**
 * Reference data as the request paths read it: from memory, refreshed every REFERENCE_CACHE_SECONDS, so validating a
 * treatment costs no storage round trip per rule (DESIGN section 6).
 */
export interface ReferenceData {
  products: Map<string, StoredProduct>;
  applicators: Map<string, StoredApplicator>;
  codes: SiexCodes;
}

export async function loadReferenceData(tables: TableStore): Promise<ReferenceData> {
  const catalog = new CatalogStore(tables);
  const [products, applicators, codes] = await Promise.all([
    catalog.loadProducts(),
    catalog.loadApplicators(),
    loadSiexCodes(tables),
  ]);
  return {
    products: new Map(products.map((p) => [p.code, p])),
    applicators: new Map(applicators.map((a) => [a.ropo, a])),
    codes,
  };
}

export function referenceCache(tables: TableStore, periodSeconds: number): RefreshingValue<ReferenceData> {
  return new RefreshingValue(() => loadReferenceData(tables), periodSeconds * 1000);
}
