import type { TableClient, TransactionAction } from '@azure/data-tables';
import { submitInChunks } from '../../store/batched-query';
import { fromDocProps, toDocProps } from '../../store/doc-entity';
import { beginCatalogChange, bumpCatalogVersion } from '../catalog-version';
import { TABLES, TableStore } from '../../store/tables';
import { CATALOGUES, Catalogues, SiexCode, siexCodeSchema } from './catalogues';
import { SiexCodes } from './siex-codes';
import { CatalogueDiff, diffCatalogue, KnownCode } from './catalogue-diff';
import { odataEq } from '../../store/odata';

/**
 * SIEX catalogues in the `catalog` table, one partition per catalogue (`siex-UNIDADES_MEDIDA`, ...; RowKey = code),
 * beside the products and applicators, so the reference-data cache loads a catalogue with one partition query. Rows
 * carry a content hash, so importing the same file again writes nothing. Rows are never deleted: FEGA end-dates codes
 * (Fecha de baja) instead of removing them, and a code missing from a newer file is reported and kept as stored.
 */
const siexPartition = (catalogue: string): string => `siex-${catalogue}`;

/** What an import changed; codes stored before and absent from the file (`missingFromFile`) are kept as they were. */
export type CatalogueUpsertReport = CatalogueDiff;

export class SiexCodeStore {
  constructor(private readonly store: TableStore) {}

  async upsertCatalogue(catalogue: string, entries: readonly SiexCode[]): Promise<CatalogueUpsertReport> {
    const table = await this.store.table(TABLES.catalog);
    const pk = siexPartition(catalogue);
    const existing = await readRows(table, pk);
    const { changedEntries, ...report } = diffCatalogue(existing, entries);
    const actions: TransactionAction[] = changedEntries.map(({ entry, hash }) => [
      'upsert',
      { partitionKey: pk, rowKey: rowKeyOf(entry.code), hash, ...toDocProps(entry) },
      'Replace',
    ]);
    // One partition per catalogue, so each chunk is a valid entity-group transaction.
    if (actions.length > 0) await beginCatalogChange(table);
    await submitInChunks(table, actions);
    if (actions.length > 0) await bumpCatalogVersion(table);
    return report;
  }

  async loadCatalogue(catalogue: string): Promise<SiexCode[]> {
    const table = await this.store.table(TABLES.catalog);
    return [...(await readRows(table, siexPartition(catalogue))).values()].map((r) => r.doc);
  }

  /**
   * These catalogues (by default those the catalog itself reads, CATALOGUES), one partition query each, run
   * together. Catalogues never imported come back empty.
   */
  async loadAll(catalogues: Catalogues = CATALOGUES): Promise<SiexCodes> {
    const loaded = await Promise.all(
      Object.keys(catalogues).map(async (c) => [c, await this.loadCatalogue(c)] as const),
    );
    return SiexCodes.from(Object.fromEntries(loaded));
  }
}

/** Shorthand for the reference-data cache: `await loadSiexCodes(store, catalogues)`. */
export function loadSiexCodes(store: TableStore, catalogues?: Catalogues): Promise<SiexCodes> {
  return new SiexCodeStore(store).loadAll(catalogues);
}

/** Codes are digits today; anything Table Storage forbids in a key is escaped so a future code cannot break a write. */
function rowKeyOf(code: string): string {
  return code.replace(
    // eslint-disable-next-line no-control-regex -- control characters are exactly what a key may not hold
    /[/\\#?%\u0000-\u001f\u007f-\u009f]/g,
    (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}

async function readRows(table: TableClient, pk: string): Promise<Map<string, KnownCode & { doc: SiexCode }>> {
  const rows = new Map<string, KnownCode & { doc: SiexCode }>();
  for await (const e of table.listEntities<Record<string, unknown>>({
    queryOptions: { filter: odataEq('PartitionKey', pk) },
  })) {
    const doc = siexCodeSchema.parse(fromDocProps(e));
    rows.set(doc.code, { doc, hash: String(e.hash), until: doc.until });
  }
  return rows;
}
