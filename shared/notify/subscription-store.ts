import { z } from 'zod';
import type { TableClient } from '@azure/data-tables';
import { isRestError } from '../store/azure-sdk';
import { TABLES, TableStore } from '../store/tables';
import { JOB_EVENT_TYPES } from './webhook-event';
import { WebhookSubscription } from './webhook-subscription';

/**
 * Each client's own webhook settings (webhook-subscription.ts), a row per client in the `clients` table's `webhook`
 * partition, beside the rows the back-office import writes (client-store.ts), which it never touches: a re-import
 * changes the operator's webhook, never the one the client set. Written under the row's ETag, so two changes of one
 * client at once cannot lose one (the second reads again and applies its change to the first's).
 */
const PARTITION = 'webhook';

const row = z.object({
  url: z.string(),
  events: z.codec(z.string(), z.array(z.enum(JOB_EVENT_TYPES)), {
    decode: (text) => JSON.parse(text) as (typeof JOB_EVENT_TYPES)[number][],
    encode: (events) => JSON.stringify(events),
  }),
  generation: z.number().int().nonnegative(),
  previousGeneration: z.number().int().nonnegative().nullable().default(null),
  // Fixed-width text: it reads back as written whatever number type the service keeps.
  previousUntil: z.string().default(''),
  updatedAt: z.string(),
});

function fromRow(e: unknown): WebhookSubscription {
  const r = row.parse(e);
  return {
    url: r.url,
    events: r.events,
    generation: r.generation,
    previous:
      r.previousGeneration === null ? null : { generation: r.previousGeneration, until: Number(r.previousUntil) },
    updatedAt: Number(r.updatedAt),
  };
}

const ms = (n: number) => String(n).padStart(16, '0');

function toRow(s: WebhookSubscription) {
  return {
    url: s.url,
    events: JSON.stringify(s.events),
    generation: s.generation,
    previousGeneration: s.previous?.generation ?? null,
    previousUntil: s.previous ? ms(s.previous.until) : '',
    updatedAt: ms(s.updatedAt),
  };
}

export class SubscriptionStore {
  constructor(private readonly tables: TableStore) {}

  /** What a delivery reads of a client's settings: one point read per try. */
  async find(clientId: string): Promise<WebhookSubscription | null> {
    return (await this.read(await this.table(), clientId))?.value ?? null;
  }

  /**
   * Applies `change` to the client's settings as they are (null: none yet) and writes the result, reading again and
   * applying it again if another change came in between. Answers the settings before and after.
   */
  async change(
    clientId: string,
    change: (current: WebhookSubscription | null) => WebhookSubscription,
  ): Promise<{ before: WebhookSubscription | null; after: WebhookSubscription }> {
    const table = await this.table();
    for (;;) {
      const current = await this.read(table, clientId);
      const after = change(current?.value ?? null);
      const entity = { partitionKey: PARTITION, rowKey: clientId, ...toRow(after) };
      try {
        if (current) await table.updateEntity(entity, 'Replace', { etag: current.etag });
        else await table.createEntity(entity);
        return { before: current?.value ?? null, after };
      } catch (e) {
        // Another change of this client's settings won the race: apply this one to its result.
        if (!isRestError(e, 409, 412)) throw e;
      }
    }
  }

  private async read(table: TableClient, clientId: string) {
    try {
      const e = await table.getEntity(PARTITION, clientId);
      return { value: fromRow(e), etag: e.etag };
    } catch (e) {
      if (isRestError(e, 404)) return null;
      throw e;
    }
  }

  private table(): Promise<TableClient> {
    return this.tables.table(TABLES.clients);
  }
}
