import { z } from 'zod';
import { isRestError } from '../store/azure-sdk';
import { ClientRegistration } from './client-registration';
import { TABLES, TableStore } from '../store/tables';
import { hashKey } from './keys';

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
 * One row per client, keyed by the hash of its SID key, so authenticating a request is a single point read. The
 * `client` partition keeps the id → SID hash link so a re-import with a new SID key retires the old row.
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

  /** Idempotent: writes only what changed and removes the row of a SID key the client no longer has. */
  async upsert(input: ClientRegistration & { expiresIso: string }): Promise<'added' | 'changed' | 'unchanged'> {
    const table = await this.store.table(TABLES.clients);
    const sidHash = hashKey(input.sidKey);
    const row = {
      clientId: input.id,
      name: input.name,
      email: input.email,
      apiKeyHash: hashKey(input.apiKey),
      expires: input.expiresIso,
      farms: JSON.stringify([...new Set(input.farms)].sort()),
      apimSubscriptionId: input.apimSubscriptionId ?? input.id,
      webhookUrl: input.webhook ?? '',
    };
    let previous: { sidHash: string } | undefined;
    try {
      previous = await table.getEntity<{ sidHash: string }>(BY_ID, input.id);
    } catch (e) {
      if (!isRestError(e, 404)) throw e;
    }
    if (previous && previous.sidHash === sidHash) {
      const current = await table.getEntity<Record<string, string>>(BY_SID, sidHash).catch(() => undefined);
      if (current && Object.entries(row).every(([k, v]) => current[k] === v)) return 'unchanged';
    }
    await table.upsertEntity({ partitionKey: BY_SID, rowKey: sidHash, ...row }, 'Replace');
    await table.upsertEntity({ partitionKey: BY_ID, rowKey: input.id, sidHash }, 'Replace');
    if (previous && previous.sidHash !== sidHash)
      await table.deleteEntity(BY_SID, previous.sidHash).catch(() => undefined);
    return previous ? 'changed' : 'added';
  }
}
