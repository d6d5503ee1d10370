import { z } from 'zod';
import type { TableClient } from '@azure/data-tables';
import { TABLES, TableStore } from '../store/tables';
import { odataEq } from '../store/odata';

/**
 * What became of each event sent to a client's webhook, for the client to read (GET /v1/webhooks/deliveries): a row
 * per event in the `jobs` table's partition `d~<client id>`, replaced after every try, its key the event's creation
 * counted down so that a partition reads newest first and the last deliveries are the partition's first rows.
 */
export interface DeliveryEntry {
  eventId: string;
  type: string;
  /** The job the event tells of; null for a ping. */
  jobId: number | null;
  url: string;
  state: 'pending' | 'delivered' | 'abandoned';
  attempts: number;
  /** Why the last try failed ('' when it did not). */
  lastError: string;
  /** Epoch ms. */
  createdAt: number;
  lastTryAt: number;
}

const row = z.object({
  eventId: z.string(),
  type: z.string(),
  jobId: z.number().int().nullable().default(null),
  url: z.string(),
  state: z.enum(['pending', 'delivered', 'abandoned']),
  attempts: z.number().int().nonnegative(),
  lastError: z.string().default(''),
  createdAt: z.string(),
  lastTryAt: z.string(),
});

const ms = (n: number) => String(n).padStart(16, '0');
/** Later events sort first: epoch ms counted down from a bound far past any date of this service's life. */
const newestFirst = (createdAt: number) => ms(99_999_999_999_999 - createdAt);

export class DeliveryLog {
  constructor(private readonly tables: TableStore) {}

  async write(clientId: string, e: DeliveryEntry): Promise<void> {
    await (
      await this.table()
    ).upsertEntity(
      {
        partitionKey: `d~${clientId}`,
        rowKey: `${newestFirst(e.createdAt)}~${e.eventId}`,
        ...e,
        createdAt: ms(e.createdAt),
        lastTryAt: ms(e.lastTryAt),
      },
      'Replace',
    );
  }

  /** The client's last `limit` events, newest first. */
  async last(clientId: string, limit: number): Promise<DeliveryEntry[]> {
    const found: DeliveryEntry[] = [];
    const pages = (await this.table())
      .listEntities({ queryOptions: { filter: odataEq('PartitionKey', `d~${clientId}`) } })
      .byPage({ maxPageSize: limit });
    for await (const page of pages) {
      for (const e of page) {
        const r = row.parse(e);
        found.push({ ...r, createdAt: Number(r.createdAt), lastTryAt: Number(r.lastTryAt) });
      }
      if (found.length >= limit) break;
    }
    return found.slice(0, limit);
  }

  private table(): Promise<TableClient> {
    return this.tables.table(TABLES.jobs);
  }
}
