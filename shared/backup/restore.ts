import type { TableClient, TransactionAction } from '@azure/data-tables';
import type { BlobClient, ContainerClient } from '@azure/storage-blob';
import { MAX_TRANSACTION_OPERATIONS } from '../store/batched-query';
import { odata } from '../store/odata';
import { TABLES } from '../store/tables';
import { accountTableLabel, BackupRow, backupRowSchema, TableEntry, toBackupRow, toEntity } from './snapshot-format';
import { checkedParts, partLines, protectedBlobs, readManifest, SnapshotProblem } from './snapshot-reader';
import { Progress, Tables } from './table-backup';

/**
 * Restores a snapshot (issue 36). A table or partition that holds rows is written over only when asked to (`replace`),
 * and then emptied first: what the target gained after the snapshot (a record's newer versions, its history rows,
 * idempotency keys) would otherwise stay beside the snapshot's rows and break the set they form, so a record, its
 * pointer, its versions and its history always come back as the snapshot had them, together. Nothing is written
 * until every part of the snapshot matches its manifest, the manifest matches the copy kept outside the backup account
 * (when one is given), and the target is found empty or `replace` was asked.
 */

export interface RestoreOptions {
  /** Only this table, in every account (every table of the snapshot otherwise). */
  table?: string;
  /** Only rows of this partition, in every table restored: one holding is `h~<REA>` in each record table. */
  partition?: string;
  /** Empty the target's rows in scope, then write; without it a target holding rows in scope is refused. */
  replace?: boolean;
  /** The SHA-256 of the manifest as recorded outside the backup account; the restore refuses any other manifest. */
  manifestSha256?: string;
  /** Each row `replace` takes out of the target, before it is deleted (deletion-log.ts reads the deletions in them). */
  onRemoved?: (table: string, row: BackupRow) => void;
}

export interface RestoreDeps {
  tables: Tables;
  /** Every table the gateway owns (GATEWAY_TABLES, shared/app/record-kinds.ts): a snapshot's other tables are refused. */
  tableNames: readonly string[];
  container: ContainerClient;
  onProgress?: (p: Progress) => void;
}

/** A restore asked over rows the target holds, without `replace`. */
export class RestoreRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreRefused';
  }
}

/** Table Storage's 4 MiB for one transaction, a margin kept for the batch envelope (operations: batched-query.ts). */
const MAX_BATCH_BYTES = 3.5 * 1024 * 1024;
/** Transactions in flight during a restore: enough to hide round trips, few enough not to be throttled. */
const RESTORE_CONCURRENCY = 8;
const PROGRESS_EVERY = 1000;

/**
 * Ids handed out after the snapshot was taken are not in it, but SIEX may hold records under them (an IdAjena is never
 * reused: docs/architecture.md, "Data"). A restored counter therefore resumes this far past its backed-up value: more
 * ids than the gateway hands out between two daily backups, and well within the 10 digits an IdAjena may have; and
 * never below the value the target's counter had, for ids the target handed out since.
 */
export const COUNTER_RESTORE_GAP = 10_000_000;

/** The OData filter of a scope: one partition, or the whole table. */
const scopeFilter = (partition: string | undefined) =>
  partition === undefined ? undefined : odata`PartitionKey eq ${partition}`;

export async function restoreBackup(
  deps: RestoreDeps,
  snapshot: string,
  options: RestoreOptions = {},
): Promise<{ table: string; rows: number }[]> {
  const { manifest } = await readManifest(deps.container, snapshot, options.manifestSha256);
  const known = new Set<string>(deps.tableNames);
  const entries = manifest.tables.filter((t) => !options.table || t.name === options.table);
  if (options.table && entries.length === 0)
    throw new SnapshotProblem(`snapshot ${snapshot} has no table ${options.table}`);
  for (const entry of entries) {
    if (!known.has(entry.name)) throw new SnapshotProblem(`table ${entry.name} is not one of the gateway's`);
    // Each account's tables go back to the account of the same number: a farm's rows to the account recorded for it.
    if (accountOf(entry) >= deps.tables.accounts.length)
      throw new SnapshotProblem(
        `snapshot ${snapshot} holds tables of storage account ${accountOf(entry)} (0 the first), and the target has ` +
          `${deps.tables.accounts.length} (STORAGE_ACCOUNTS): nothing was written`,
      );
  }
  // Every part is checked before any row is written: a damaged snapshot restores nothing.
  const blobs = await protectedBlobs(deps.container, `${snapshot}/`);
  const parts = new Map<TableEntry, BlobClient[]>();
  for (const entry of entries) parts.set(entry, await checkedParts(blobs, entry));
  const filter = scopeFilter(options.partition);
  const scope = options.partition === undefined ? '' : ` (partition ${options.partition})`;
  if (!options.replace) {
    const occupied: string[] = [];
    for (const entry of entries)
      if (await holdsRows(await targetOf(deps, entry), filter)) occupied.push(labelOf(entry));
    if (occupied.length > 0)
      throw new RestoreRefused(
        `${occupied.join(', ')}${scope} hold rows: a restore over them must replace them (--replace); nothing was written`,
      );
  }
  const report: { table: string; rows: number }[] = [];
  for (const entry of entries) {
    const client = await targetOf(deps, entry);
    const label = labelOf(entry);
    const live = options.replace
      ? await emptyScope(client, filter, (row) => options.onRemoved?.(entry.name, row))
      : new Map<string, BackupRow>();
    const transform = entry.name === TABLES.counters ? advanceCounter(live) : (row: BackupRow) => row;
    const rows = await writeRows(client, linesOf(parts.get(entry)!), options.partition, transform, (n, done) =>
      deps.onProgress?.({ table: label, rows: n, total: entryRows(entry, options.partition), done }),
    );
    report.push({ table: label, rows });
  }
  return report;
}

/** A manifest entry's account: none is the first, as in every snapshot written before issue 37. */
const accountOf = (entry: TableEntry): number => entry.account ?? 0;
const labelOf = (entry: TableEntry): string => accountTableLabel({ name: entry.name, account: accountOf(entry) });
const targetOf = (deps: RestoreDeps, entry: TableEntry) => deps.tables.accountTable(accountOf(entry), entry.name);

/** The table's row count for the progress bar, when the whole table is restored. */
const entryRows = (entry: TableEntry, partition: string | undefined) =>
  partition === undefined ? entry.rows : undefined;

async function* linesOf(blobs: BlobClient[]): AsyncGenerator<string> {
  for (const blob of blobs) yield* partLines(blob);
}

async function holdsRows(client: TableClient, filter: string | undefined): Promise<boolean> {
  const page = client.listEntities({ queryOptions: { filter, select: ['RowKey'] } }).byPage({ maxPageSize: 1 });
  for await (const rows of page) if (rows.length > 0) return true;
  return false;
}

/**
 * Deletes every row of the target in scope, each handed to `removed` first, in transactions of one partition; the
 * rows taken out, by partition and row key.
 */
async function emptyScope(
  client: TableClient,
  filter: string | undefined,
  removed: (row: BackupRow) => void,
): Promise<Map<string, BackupRow>> {
  const taken = new Map<string, BackupRow>();
  const batches = new Batches(client);
  for await (const entity of client.listEntities({ disableTypeConversion: true, queryOptions: { filter } })) {
    const row = toBackupRow(entity);
    removed(row);
    taken.set(`${row.partitionKey}\u0000${row.rowKey}`, row);
    await batches.add(row.partitionKey, ['delete', { partitionKey: row.partitionKey, rowKey: row.rowKey }], 0);
  }
  await batches.done();
  return taken;
}

/** A restored counter: its backed-up value moved on by the gap, or the target's own, whichever is further. */
function advanceCounter(live: Map<string, BackupRow>): (row: BackupRow) => BackupRow {
  return (row) => {
    const next = row.properties.next;
    if (!next) return row;
    const theirs = Number(live.get(`${row.partitionKey}\u0000${row.rowKey}`)?.properties.next?.value ?? 0);
    const advanced = Math.max(Number(next.value) + COUNTER_RESTORE_GAP, theirs);
    // Past Int32's range it is a Double, as the SDK writes such a number (Counters reads it back as a number).
    const type = next.type === 'Int32' && advanced > 2_147_483_647 ? 'Double' : next.type;
    return { ...row, properties: { ...row.properties, next: { value: String(advanced), type } } };
  };
}

/**
 * Entity-group transactions of one partition each, up to 100 operations and 3.5 MiB, RESTORE_CONCURRENCY in flight.
 * Rows come partition by partition (as tables list them), so a transaction closes when the partition changes.
 */
class Batches {
  private readonly inFlight = new Set<Promise<void>>();
  private failure: Error | undefined;
  private batch: TransactionAction[] = [];
  private key = '';
  private bytes = 0;

  constructor(private readonly client: TableClient) {}

  async add(partition: string, action: TransactionAction, size: number): Promise<void> {
    if (
      partition !== this.key ||
      this.batch.length === MAX_TRANSACTION_OPERATIONS ||
      this.bytes + size > MAX_BATCH_BYTES
    )
      await this.flush();
    this.key = partition;
    this.batch.push(action);
    this.bytes += size;
  }

  private async flush(): Promise<void> {
    if (this.batch.length === 0) return;
    const actions = this.batch;
    this.batch = [];
    this.bytes = 0;
    const sent: Promise<void> = this.client.submitTransaction(actions).then(
      () => void this.inFlight.delete(sent),
      (e: unknown) => {
        this.failure ??= e instanceof Error ? e : new Error(String(e));
        this.inFlight.delete(sent);
      },
    );
    this.inFlight.add(sent);
    if (this.inFlight.size >= RESTORE_CONCURRENCY) await Promise.race(this.inFlight);
    if (this.failure !== undefined) throw this.failure;
  }

  async done(): Promise<void> {
    await this.flush();
    await Promise.all(this.inFlight);
    if (this.failure !== undefined) throw this.failure;
  }
}

async function writeRows(
  client: TableClient,
  lines: AsyncIterable<string>,
  partition: string | undefined,
  transform: (row: BackupRow) => BackupRow,
  progress: (rows: number, done: boolean) => void,
): Promise<number> {
  const batches = new Batches(client);
  let rows = 0;
  for await (const line of lines) {
    const row = transform(backupRowSchema.parse(JSON.parse(line)));
    if (partition !== undefined && row.partitionKey !== partition) continue;
    const entity = toEntity(row) as { partitionKey: string; rowKey: string };
    await batches.add(row.partitionKey, ['upsert', entity, 'Replace'], line.length);
    rows++;
    if (rows % PROGRESS_EVERY === 0) progress(rows, false);
  }
  await batches.done();
  progress(rows, true);
  return rows;
}
