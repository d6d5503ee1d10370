import type { TableClient, TableServiceClient } from '@azure/data-tables';
import { dataTables, identity } from './azure-sdk';
import { Settings } from '../config/settings';
import { timeoutPolicies } from './deadline';
import { createOnMiss } from './create-on-miss';

/**
 * How long one storage try may take, and how storage calls retry: a few quick retries of what the SDK deems transient
 * (5xx, 408, a refused or reset connection), so that an outage is reported in about a second rather than after the
 * SDK's default back-off of several seconds. Inside a request the request's deadline (shared/store/deadline.ts) also applies.
 */
export const STORAGE_TRY_TIMEOUT_MS = 10_000;
const RETRY_OPTIONS = { maxRetries: 2, retryDelayInMs: 200, maxRetryDelayInMs: 1000 };

/**
 * The tables of the gateway's core; each record kind's own table is named by its entry (shared/app/record-kinds.ts
 * lists them all). Every table is created by the first call that finds it missing, so a fresh storage account just
 * works.
 */
export const TABLES = {
  /** Clients and their hashed keys. PK `client`, RK client id; PK `sid`, RK hash of the SID key. */
  clients: 'clients',
  /** Farm campaigns: lookup index, rendered farm view and idcp index (see farms/farm-store.ts). */
  farms: 'farms',
  /** Reference data: products with uses, applicators, SIEX code catalogues. */
  catalog: 'catalog',
  /** Id counters (one row per entity type). */
  counters: 'counters',
  /** Export jobs: one partition per job (status row, one row per record, one row per SIEX batch). */
  jobs: 'jobs',
  /** The operation each client's Idempotency-Key belongs to (idempotency/key-operations.ts). PK the key's hash. */
  idempotency: 'idempotency',
} as const;

/** A table of TABLES, or a record kind's: its records, versions, history rows and idempotency entries, one partition per holding. */
export type TableName = string;

/** Creates table clients from the settings: a connection string (Azurite, dev) or managed identity (Azure). */
export class TableStore {
  private readonly clients = new Map<string, TableClient>();
  private readonly creating = new Map<string, Promise<void>>();

  constructor(private readonly settings: Pick<Settings, 'AzureWebJobsStorage' | 'AzureWebJobsStorage__accountName'>) {}

  /**
   * A client for the table, taking it to exist: a call that finds it missing creates it and is tried again
   * (./create-on-miss.ts), so a fresh storage account just works and a cold start's first request makes no
   * `createTable` round trip.
   */
  table(name: TableName): Promise<TableClient> {
    return Promise.resolve(this.client(name));
  }

  /** Creates the table; calls that find it missing at the same time share one creation. */
  private create(name: string, client: TableClient): Promise<void> {
    let creating = this.creating.get(name);
    if (!creating) {
      creating = client.createTable().finally(() => this.creating.delete(name));
      this.creating.set(name, creating);
    }
    return creating;
  }

  private client(name: string): TableClient {
    let client = this.clients.get(name);
    if (!client) {
      const conn = this.settings.AzureWebJobsStorage;
      const options = { retryOptions: RETRY_OPTIONS, additionalPolicies: timeoutPolicies(STORAGE_TRY_TIMEOUT_MS) };
      const raw = conn
        ? dataTables().TableClient.fromConnectionString(conn, name, {
            ...options,
            allowInsecureConnection: conn.includes('http://'),
          })
        : new (dataTables().TableClient)(
            `https://${this.settings.AzureWebJobsStorage__accountName}.table.core.windows.net`,
            name,
            new (identity().DefaultAzureCredential)(),
            options,
          );
      client = createOnMiss(raw, () => this.create(name, raw));
      this.clients.set(name, client);
    }
    return client;
  }

  /** Service-level client, for operations that span tables (tests use it to list tables). */
  service(): TableServiceClient {
    const conn = this.settings.AzureWebJobsStorage;
    return conn
      ? dataTables().TableServiceClient.fromConnectionString(conn, {
          allowInsecureConnection: conn.includes('http://'),
        })
      : new (dataTables().TableServiceClient)(
          `https://${this.settings.AzureWebJobsStorage__accountName}.table.core.windows.net`,
          new (identity().DefaultAzureCredential)(),
        );
  }
}
