import type { TableClient, TableServiceClient } from '@azure/data-tables';
import { dataTables, identity } from './azure-sdk';
import { Settings } from '../config/settings';
import { timeoutPolicies } from './deadline';
import { createOnMiss } from './create-on-miss';
import { StorageAccount, storageAccounts } from '../config/storage-accounts';
import { FarmAccounts } from './farm-accounts';

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
  /**
   * Id counters (one row per entity type: an id is unique across every farm, so they are global and stay in the first
   * account whatever the farm).
   */
  counters: 'counters',
  /** The data account each farm's rows live in (farm-accounts.ts). PK the REA. */
  farmAccounts: 'farmaccounts',
  /** Export jobs: one partition per job (status row, one row per record, one row per SIEX batch). */
  jobs: 'jobs',
  /** The operation each client's Idempotency-Key belongs to (idempotency/key-operations.ts). PK the key's hash. */
  idempotency: 'idempotency',
} as const;

/** A table of TABLES, or a record kind's: its records, versions, history rows and idempotency entries, one partition per holding. */
export type TableName = string;

type StoreSettings = Pick<Settings, 'AzureWebJobsStorage' | 'AzureWebJobsStorage__accountName'> &
  Partial<Pick<Settings, 'STORAGE_ACCOUNTS'>>;

/**
 * Creates table clients from the settings, for each data account (shared/config/storage-accounts.ts): a connection
 * string (Azurite, dev) or managed identity (Azure). `table` is the first account's, where everything that is not a
 * farm's lives; `farmTable` is the account the farm's rows live in (farm-accounts.ts).
 */
export class TableStore {
  readonly accounts: readonly StorageAccount[];
  /** Which account each farm's rows are in; recorded in the first account. */
  readonly farmAccounts: FarmAccounts;
  private readonly pools: AccountTables[];

  constructor(settings: StoreSettings) {
    this.accounts = storageAccounts(settings);
    this.pools = this.accounts.map((account) => new AccountTables(account));
    this.farmAccounts = new FarmAccounts(() => this.table(TABLES.farmAccounts), this.accounts.length);
  }

  /**
   * A client for the table of the first account, taking it to exist: a call that finds it missing creates it and is
   * tried again (./create-on-miss.ts), so a fresh storage account just works and a cold start's first request makes no
   * `createTable` round trip.
   */
  table(name: TableName): Promise<TableClient> {
    return Promise.resolve(this.pools[0]!.client(name));
  }

  /**
   * The table in the account that holds the farm's rows. With one account that is the first, asked nothing; with
   * several, the farm's recorded account, read once per farm and process.
   */
  async farmTable(name: TableName, farm: { rea: string }): Promise<TableClient> {
    if (this.pools.length === 1) return this.pools[0]!.client(name);
    return this.accountTable(await this.farmAccounts.of(farm.rea), name);
  }

  /** The table in account `account` (its position in STORAGE_ACCOUNTS): backups, restores and listings of every account. */
  accountTable(account: number, name: TableName): Promise<TableClient> {
    const pool = this.pools[account];
    if (!pool) throw new Error(`no storage account ${account}: STORAGE_ACCOUNTS names ${this.pools.length}`);
    return Promise.resolve(pool.client(name));
  }

  /** Service-level client of an account (the first by default), for operations that span tables (tests list tables). */
  service(account = 0): TableServiceClient {
    return serviceClient(this.accounts[account]!);
  }
}

/** The table clients of one account, made once each. */
class AccountTables {
  private readonly clients = new Map<string, TableClient>();
  private readonly creating = new Map<string, Promise<void>>();

  constructor(private readonly account: StorageAccount) {}

  /** Creates the table; calls that find it missing at the same time share one creation. */
  private create(name: string, client: TableClient): Promise<void> {
    let creating = this.creating.get(name);
    if (!creating) {
      creating = client.createTable().finally(() => this.creating.delete(name));
      this.creating.set(name, creating);
    }
    return creating;
  }

  client(name: string): TableClient {
    let client = this.clients.get(name);
    if (!client) {
      const options = { retryOptions: RETRY_OPTIONS, additionalPolicies: timeoutPolicies(STORAGE_TRY_TIMEOUT_MS) };
      const account = this.account;
      const raw =
        'connectionString' in account
          ? dataTables().TableClient.fromConnectionString(account.connectionString, name, {
              ...options,
              allowInsecureConnection: account.connectionString.includes('http://'),
            })
          : new (dataTables().TableClient)(account.endpoint, name, new (identity().DefaultAzureCredential)(), options);
      client = createOnMiss(raw, () => this.create(name, raw));
      this.clients.set(name, client);
    }
    return client;
  }
}

function serviceClient(account: StorageAccount): TableServiceClient {
  return 'connectionString' in account
    ? dataTables().TableServiceClient.fromConnectionString(account.connectionString, {
        allowInsecureConnection: account.connectionString.includes('http://'),
      })
    : new (dataTables().TableServiceClient)(account.endpoint, new (identity().DefaultAzureCredential)());
}
