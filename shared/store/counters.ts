import { isRestError } from './azure-sdk';
import { TABLES, TableStore } from './tables';

/**
 * Integer id counters, one row per entity type, advanced with optimistic concurrency (ETag): two processes can never
 * receive the same id, and an id handed out is never handed out again even if the caller later fails (gaps are fine,
 * repeats are not).
 */
export class Counters {
  constructor(private readonly store: TableStore) {}

  /** Reserves `count` consecutive ids and returns the first. */
  async reserve(name: string, count: number): Promise<number> {
    const table = await this.store.table(TABLES.counters);
    for (let attempt = 0; ; attempt++) {
      try {
        const row = await table.getEntity<{ next: number }>('counter', name).catch((e: unknown) => {
          if (isRestError(e, 404)) return null;
          throw e;
        });
        if (!row) {
          await table.createEntity({ partitionKey: 'counter', rowKey: name, next: 1 + count });
          return 1;
        }
        const first = Number(row.next);
        await table.updateEntity({ partitionKey: 'counter', rowKey: name, next: first + count }, 'Replace', {
          etag: row.etag,
        });
        return first;
      } catch (e) {
        // 409: someone created the row first; 412: someone advanced it first. Read again and retry.
        const conflict = isRestError(e, 409, 412);
        if (!conflict || attempt >= 50) throw e;
        await new Promise((r) => setTimeout(r, Math.random() * 10 * (attempt + 1)));
      }
    }
  }
}

/** Where a use case takes new ids from. */
export interface IdSource {
  take(): Promise<number>;
}

/**
 * Hands out ids from blocks reserved in advance, so a hot path pays one counter round trip per block instead of one
 * per id. Ids left in a block when the process stops are never used: gaps, not repeats.
 */
export class IdBlocks implements IdSource {
  private next = 0;
  private end = 0;
  private pending: Promise<void> | undefined;

  constructor(
    private readonly counters: Counters,
    private readonly name: string,
    private readonly blockSize: number,
  ) {}

  async take(): Promise<number> {
    while (this.next >= this.end) {
      this.pending ??= this.counters.reserve(this.name, this.blockSize).then(
        (first) => {
          this.next = first;
          this.end = first + this.blockSize;
          this.pending = undefined;
        },
        (e: unknown) => {
          this.pending = undefined;
          throw e;
        },
      );
      await this.pending;
    }
    return this.next++;
  }
}
