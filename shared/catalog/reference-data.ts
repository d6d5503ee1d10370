import { systemClock } from '../time/clock';
import { VersionedValue } from '../cache/versioned-value';
import { TABLES } from '../store/tables';
import { readCatalogVersion, catalogAtRest } from './catalog-version';
import { TableStore } from '../store/tables';
import { CatalogStore, StoredApplicator, StoredProduct } from './catalog-store';
import { Catalogues } from './siex-codes/catalogues';
import { SiexCodes } from './siex-codes/siex-codes';
import { loadSiexCodes } from './siex-codes/store';

/**
 * Reference data as the request paths read it: from memory, revalidated every REFERENCE_CACHE_SECONDS against the
 * catalog version row, so validating a treatment costs no storage round trip per rule (docs/architecture.md, "Storage").
 */
export interface ReferenceData {
  products: Map<string, StoredProduct>;
  applicators: Map<string, StoredApplicator>;
  codes: SiexCodes;
}

async function loadReferenceData(tables: TableStore, catalogues: Catalogues): Promise<ReferenceData> {
  const catalog = new CatalogStore(tables);
  const [products, applicators, codes] = await Promise.all([
    catalog.loadProducts(),
    catalog.loadApplicators(),
    loadSiexCodes(tables, catalogues),
  ]);
  return {
    products: new Map(products.map((p) => [p.code, p])),
    applicators: new Map(applicators.map((a) => [a.ropo, a])),
    codes,
  };
}

/** The reference data with the SIEX catalogues the gateway uses (`catalogues`: shared/app/siex-catalogues.ts). */
export function referenceCache(
  tables: TableStore,
  periodSeconds: number,
  catalogues: Catalogues,
): VersionedValue<ReferenceData> {
  return new VersionedValue(
    async () => readCatalogVersion(await tables.table(TABLES.catalog)),
    () => loadReferenceData(tables, catalogues),
    periodSeconds * 1000,
    () => systemClock.now(),
    catalogAtRest,
  );
}
