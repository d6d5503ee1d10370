import { z } from 'zod';
import type { TableClient } from '@azure/data-tables';
import type { DateTime } from 'luxon';
import { hasExpired } from './client-expiry';
import { isRestError } from '../store/azure-sdk';
import { ClientRegistration } from './client-registration';
import { TABLES, TableStore } from '../store/tables';
import { hashKey, storedKeyHash } from './keys';
import { odataEq } from '../store/odata';

/** What the gateway knows of a client at request time. Keys are never stored, only their hashes. */
export interface Client {
  id: string;
  name: string;
  email: string;
  apiKeyHash: string;
  /** ISO day after which the credentials no longer work, or '' for none. */
  expires: string;
  /** REA codes of the farms (every campaign) the client may see. */
  farms: string[];
  /** The API Management subscription whose key the client must present (`AUTH_MODE=apim`). */
  apimSubscriptionId: string;
  /** Where job events are POSTed, signed ('' none; shared/export/notifications.ts). */
  webhookUrl: string;
}

/**
 * One row per SID key of a client (its `sidKey`, and its `previousSidKey` during a rotation), keyed by the key's hash,
 * so authenticating a request is a single point read whichever key the client sends. The `client` partition keeps the
 * id → SID hashes link so a re-import without a key retires its row.
 */
const BY_SID = 'sid';
const clientRow = z.object({
  clientId: z.string(),
  name: z.string(),
  email: z.string(),
  apiKeyHash: z.string(),
  expires: z.string().default(''),
  farms: z
    .codec(z.string(), z.array(z.string()), {
      decode: (text) => JSON.parse(text) as string[],
      encode: (farms) => JSON.stringify(farms),
    })
    .default([]),
  apimSubscriptionId: z.string().optional(),
  webhookUrl: z.string().default(''),
});
const BY_ID = 'client';

export class ClientStore {
  constructor(private readonly store: TableStore) {}

  async findBySidKey(sidKey: string): Promise<Client | null> {
    const table = await this.store.table(TABLES.clients);
    try {
      const e = clientRow.parse(await table.getEntity(BY_SID, hashKey(sidKey)));
      return {
        id: e.clientId,
        name: e.name,
        email: e.email,
        apiKeyHash: e.apiKeyHash,
        expires: e.expires,
        farms: e.farms,
        apimSubscriptionId: e.apimSubscriptionId ?? e.clientId,
        webhookUrl: e.webhookUrl,
      };
    } catch (e) {
      if (isRestError(e, 404)) return null;
      throw e;
    }
  }

  /**
   * The clients that may see a holding (REA code), each with its operator's webhook ('' none): each hears of that
   * farm's export outcomes (shared/export/notifications.ts) at its own webhook if it set one, else at this one, unless
   * its credentials have expired (client-expiry.ts). Read from the SID rows, a client once however many keys it has;
   * the clients are tens, and this is read once per settled job.
   */
  async clientsOfFarm(rea: string, now: () => DateTime): Promise<{ clientId: string; url: string }[]> {
    const table = await this.store.table(TABLES.clients);
    const found = new Map<string, string>();
    for await (const e of table.listEntities({ queryOptions: { filter: odataEq('PartitionKey', BY_SID) } })) {
      const row = clientRow.safeParse(e);
      if (row.success && row.data.farms.includes(rea) && !hasExpired(row.data.expires, now))
        found.set(row.data.clientId, row.data.webhookUrl);
    }
    return [...found].sort(([a], [b]) => a.localeCompare(b)).map(([clientId, url]) => ({ clientId, url }));
  }

  /**
   * Idempotent: writes only what changed and removes the rows of SID keys the client no longer has. The link is
   * written last, after the stale rows are gone: an import cut short in between still knows them when run again, so
   * a removed key cannot survive a crash.
   */
  async upsert(input: ClientRegistration & { expiresIso: string }): Promise<'added' | 'changed' | 'unchanged'> {
    const table = await this.store.table(TABLES.clients);
    const link = {
      sidHash: storedKeyHash(input.sidKey),
      previousSidHash: input.previousSidKey ? storedKeyHash(input.previousSidKey) : '',
    };
    const sidHashes = [link.sidHash, link.previousSidHash].filter((h) => h !== '');
    const row = {
      clientId: input.id,
      name: input.name,
      email: input.email,
      apiKeyHash: storedKeyHash(input.apiKey),
      expires: input.expiresIso,
      farms: JSON.stringify([...new Set(input.farms)].sort()),
      apimSubscriptionId: input.apimSubscriptionId ?? input.id,
      webhookUrl: input.webhook ?? '',
    };
    let previous: { sidHash: string; previousSidHash?: string } | undefined;
    try {
      previous = await table.getEntity<{ sidHash: string; previousSidHash?: string }>(BY_ID, input.id);
    } catch (e) {
      if (!isRestError(e, 404)) throw e;
    }
    // Rows written before a client could have two SID keys have no previousSidHash.
    const known = previous ? [previous.sidHash, previous.previousSidHash ?? ''].filter((h) => h !== '') : [];
    if (previous && previous.sidHash === link.sidHash && (previous.previousSidHash ?? '') === link.previousSidHash) {
      const rows = await Promise.all(
        sidHashes.map((h) => table.getEntity<Record<string, string>>(BY_SID, h).catch(() => undefined)),
      );
      if (rows.every((current) => current && Object.entries(row).every(([k, v]) => current[k] === v)))
        return 'unchanged';
    }
    for (const sidHash of sidHashes)
      await table.upsertEntity({ partitionKey: BY_SID, rowKey: sidHash, ...row }, 'Replace');
    for (const stale of known.filter((h) => !sidHashes.includes(h))) await this.retire(table, stale, input.id);
    await table.upsertEntity({ partitionKey: BY_ID, rowKey: input.id, ...link }, 'Replace');
    return previous ? 'changed' : 'added';
  }

  /** Deletes a SID row the client gave up, unless another client has taken that key meanwhile (or it is gone). */
  private async retire(table: TableClient, sidHash: string, clientId: string): Promise<void> {
    try {
      const row = await table.getEntity<{ clientId: string }>(BY_SID, sidHash);
      if (row.clientId === clientId) await table.deleteEntity(BY_SID, sidHash, { etag: row.etag });
    } catch (e) {
      if (!isRestError(e, 404)) throw e;
    }
  }
}
