import { TtlCache } from '../cache/ttl-cache';
import { VersionWatch } from '../cache/version-watch';
import { readChunkedDoc, writeChunkedDoc } from '../store/chunked-doc';
import { odata } from '../store/odata';
import { TABLES, TableStore } from '../store/tables';
import { FarmIndex, FarmIndexDoc } from './farm-index';

/**
 * Farms in the `farms` table, two partitions per farm campaign:
 * - `lookup~<rea>~<year>`: the rendered farm lookup response (JSON text), with the farm id on its first row;
 * - `farm~<farmId>`: the farm index (crops, enclosures, idcp values) that listidcp and registration resolve against.
 * Both are written only by the back office, so the index is safe to hold in memory for the reference-cache period.
 * A farm id that is not there is remembered just as long (answering it from storage each time would tell, by its
 * slowness, which ids exist); the back office's directory version (`watch`) makes a farm it adds visible at once.
 */
const lookupKey = (rea: string, year: number) => `lookup~${rea}~${year}`;
const farmKey = (farmId: number) => `farm~${farmId}`;

/** What request paths read of farms: the stored lookup view and the index (FarmStore implements it). */
export type FarmReader = Pick<FarmStore, 'lookupView' | 'index'>;

export class FarmStore {
  private readonly cache: TtlCache<number, FarmIndex | null>;

  constructor(
    private readonly tables: TableStore,
    cacheSeconds: number,
    private readonly watch?: VersionWatch,
  ) {
    this.cache = new TtlCache(cacheSeconds * 1000, 500);
    watch?.onChange(() => this.cache.clear());
  }

  /** The farm lookup response text for a REA and campaign, or null. One partition query. */
  async lookupView(rea: string, year: number): Promise<string | null> {
    const doc = await readChunkedDoc(await this.tables.table(TABLES.farms), lookupKey(rea, year));
    return doc?.text ?? null;
  }

  /** The farm id the back office assigned to a REA and campaign, and how many rows its view takes, or null. */
  async lookupInfo(rea: string, year: number): Promise<{ farmId: number; rows: number } | null> {
    const doc = await readChunkedDoc(await this.tables.table(TABLES.farms), lookupKey(rea, year));
    return doc && { farmId: Number(doc.first.farmId), rows: doc.rows };
  }

  /** The REA of every farm there is, each once, from the first row of each lookup view (the operators' listing). */
  async reas(): Promise<string[]> {
    const filter = odata`PartitionKey ge ${'lookup~'} and PartitionKey lt ${'lookup\u007f'} and RowKey eq ${'c000'}`;
    const reas = new Set<string>();
    const table = await this.tables.table(TABLES.farms);
    for await (const e of table.listEntities({ queryOptions: { filter, select: ['PartitionKey'] } }))
      reas.add(String(e.partitionKey).split('~')[1] ?? '');
    return [...reas];
  }

  /** The farm index, or null for an unknown id; from memory when recently read either way. */
  async index(farmId: number): Promise<FarmIndex | null> {
    await this.watch?.check();
    return this.cache.get(farmId, async () => {
      const doc = await this.readIndex(farmId);
      return doc && new FarmIndex(doc.index);
    });
  }

  async readIndex(farmId: number): Promise<{ index: FarmIndexDoc; hash: string; rows: number } | null> {
    const doc = await readChunkedDoc(await this.tables.table(TABLES.farms), farmKey(farmId));
    return (
      doc && {
        index: JSON.parse(doc.text) as FarmIndexDoc,
        hash: typeof doc.first.hash === 'string' ? doc.first.hash : '',
        rows: doc.rows,
      }
    );
  }

  /** Writes the index first: a lookup view never points at a farm whose index is not there yet. */
  async save(
    index: FarmIndexDoc,
    viewText: string,
    hash: string,
    previousIndexRows: number,
    previousViewRows: number,
  ): Promise<void> {
    const table = await this.tables.table(TABLES.farms);
    const { farmId, rea, year } = index.meta;
    await writeChunkedDoc(table, farmKey(farmId), JSON.stringify(index), { hash }, previousIndexRows);
    await writeChunkedDoc(table, lookupKey(rea, year), viewText, { farmId }, previousViewRows);
    this.cache.delete(farmId);
  }
}
