import { isRestError } from '../store/azure-sdk';
import { TABLES, TableStore } from '../store/tables';
import { ClientSlots, MAX_DELIVERIES_PER_CLIENT } from './webhook-delivery';
import { DELIVERY_TIMEOUT_MS } from './webhook-sender';

/**
 * How long a slot is held at most: a try ends within DELIVERY_TIMEOUT_MS, so a slot still held well after it belongs
 * to a process that died mid-try, and the next delivery of that client takes it over.
 */
const SLOT_LEASE_MS = DELIVERY_TIMEOUT_MS + 20_000;

/** A slot row's `until`, fixed-width text so that it reads back as written whatever number types the service keeps. */
const untilText = (ms: number) => String(ms).padStart(16, '0');

/**
 * Each client's delivery slots as rows of the `jobs` table, shared by every instance of the delivery function: a
 * partition per client (`s~<client id>`), row `0` to `max - 1`, each held until its `until`. A slot is taken by
 * creating its row (the service refuses a second), or by replacing a row whose holder's time is past, under its ETag
 * (two takers cannot both win); it is freed by deleting the row under the ETag it was taken with, so a holder that
 * outlived its lease never frees another's.
 */
export class TableSlots implements ClientSlots {
  constructor(
    private readonly tables: TableStore,
    private readonly now: () => number,
    private readonly max = MAX_DELIVERIES_PER_CLIENT,
  ) {}

  async take(clientId: string): Promise<(() => Promise<void>) | null> {
    const table = await this.tables.table(TABLES.jobs);
    const partitionKey = `s~${clientId}`;
    const free = (rowKey: string, etag: string) => async () => {
      try {
        await table.deleteEntity(partitionKey, rowKey, { etag });
      } catch (e) {
        // Taken over after its lease ran out, or gone: the slot is not this holder's to free any more.
        if (!isRestError(e, 404, 412)) throw e;
      }
    };
    for (let n = 0; n < this.max; n++) {
      const rowKey = String(n);
      const now = this.now();
      const row = { partitionKey, rowKey, until: untilText(now + SLOT_LEASE_MS) };
      try {
        return free(rowKey, (await table.createEntity(row)).etag ?? '*');
      } catch (e) {
        if (!isRestError(e, 409)) throw e;
      }
      try {
        const held = await table.getEntity<{ until: string }>(partitionKey, rowKey);
        if (Number(held.until) > now) continue;
        return free(rowKey, (await table.updateEntity(row, 'Replace', { etag: held.etag })).etag ?? '*');
      } catch (e) {
        // Freed meanwhile (404) or taken over by another (412): the next slot is tried.
        if (!isRestError(e, 404, 412)) throw e;
      }
    }
    return null;
  }
}
