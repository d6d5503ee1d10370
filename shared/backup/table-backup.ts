import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import type { TableClient, TransactionAction } from '@azure/data-tables';
import type { ContainerClient } from '@azure/storage-blob';
import { isRestError } from '../store/azure-sdk';
import { MAX_TRANSACTION_OPERATIONS } from '../store/batched-query';
import { TABLES, TableName } from '../store/tables';
import {
  BACKUP_FORMAT,
  BackupRow,
  backupRowSchema,
  Manifest,
  MANIFEST_BLOB,
  manifestSchema,
  snapshotName,
  tableBlob,
  toBackupRow,
  toEntity,
} from './snapshot-format';

/**
 * Backup and restore of every table the gateway owns (RD 1311/2012: a farm keeps its treatment record for at least
 * three years, and the gateway holds that record). A backup streams each table into its blob, so memory stays flat
 * whatever the table's size; a restore checks each blob against the manifest's SHA-256 before it writes a row, then
 * writes in entity-group transactions per partition. A restore adds and overwrites rows, never deletes one.
 */

/** Tables are read and written through this: the gateway's TableStore, or one on another account (restore --to). */
interface Tables {
  table(name: TableName): Promise<TableClient>;
}

export interface Progress {
  table: string;
  /** Rows done in this table so far, and the table's total when known (restore). */
  rows: number;
  total?: number;
  done: boolean;
}

export interface BackupDeps {
  tables: Tables;
  /** Every table the gateway owns: the core's and each record kind's (shared/app/record-kinds.ts). */
  tableNames: readonly string[];
  container: ContainerClient;
  now: () => Date;
  onProgress?: (p: Progress) => void;
}

/** Table Storage's 4 MiB for one transaction, a margin kept for the batch envelope (operations: batched-query.ts). */
const MAX_BATCH_BYTES = 3.5 * 1024 * 1024;
/** Transactions in flight during a restore: enough to hide round trips, few enough not to be throttled. */
const RESTORE_CONCURRENCY = 8;
const PROGRESS_EVERY = 1000;

export async function takeBackup(deps: BackupDeps): Promise<Manifest> {
  const started = deps.now();
  const snapshot = snapshotName(started);
  await deps.container.createIfNotExists();
  const tables: Manifest['tables'] = [];
  for (const name of deps.tableNames) {
    const blob = tableBlob(snapshot, name);
    const hash = createHash('sha256');
    let rows = 0;
    const client = await deps.tables.table(name);
    async function* lines(): AsyncGenerator<string> {
      for await (const entity of client.listEntities({ disableTypeConversion: true })) {
        const line = `${JSON.stringify(toBackupRow(entity))}\n`;
        hash.update(line);
        rows++;
        if (rows % PROGRESS_EVERY === 0) deps.onProgress?.({ table: name, rows, done: false });
        yield line;
      }
    }
    await deps.container
      .getBlockBlobClient(blob)
      .uploadStream(Readable.from(lines()).pipe(createGzip()), 4 * 1024 * 1024, 4, {
        blobHTTPHeaders: { blobContentType: 'application/x-ndjson', blobContentEncoding: 'gzip' },
      });
    deps.onProgress?.({ table: name, rows, done: true });
    tables.push({ name, blob, rows, sha256: hash.digest('hex') });
  }
  const manifest: Manifest = {
    format: BACKUP_FORMAT,
    snapshot,
    started: started.toISOString(),
    finished: deps.now().toISOString(),
    tables,
  };
  const text = JSON.stringify(manifest, null, 2);
  await deps.container
    .getBlockBlobClient(`${snapshot}/${MANIFEST_BLOB}`)
    .upload(text, Buffer.byteLength(text), { blobHTTPHeaders: { blobContentType: 'application/json' } });
  return manifest;
}

/** The complete snapshots in the container (those with a manifest), oldest first. */
export async function listSnapshots(container: ContainerClient): Promise<string[]> {
  const out: string[] = [];
  if (!(await container.exists())) return out;
  for await (const item of container.listBlobsFlat()) {
    const [snapshot, file] = item.name.split('/');
    if (snapshot && file === MANIFEST_BLOB) out.push(snapshot);
  }
  return out.sort();
}

export class SnapshotProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SnapshotProblem';
  }
}

async function readManifest(container: ContainerClient, snapshot: string): Promise<Manifest> {
  try {
    const buffer = await container.getBlockBlobClient(`${snapshot}/${MANIFEST_BLOB}`).downloadToBuffer();
    return manifestSchema.parse(JSON.parse(buffer.toString('utf8')));
  } catch (e) {
    if (isRestError(e, 404)) throw new SnapshotProblem(`no complete snapshot named ${snapshot}`);
    throw e;
  }
}

/** The table blob's lines, as written (the service decompresses nothing: the gzip is the blob itself). */
async function* blobLines(container: ContainerClient, blob: string): AsyncGenerator<string> {
  const download = await container.getBlockBlobClient(blob).download();
  const body = download.readableStreamBody;
  if (!body) throw new SnapshotProblem(`${blob} has no content`);
  const reader = createInterface({ input: Readable.from(body).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of reader) if (line) yield line;
}

async function checkTableBlob(container: ContainerClient, entry: Manifest['tables'][number]): Promise<void> {
  const hash = createHash('sha256');
  let rows = 0;
  for await (const line of blobLines(container, entry.blob)) {
    hash.update(`${line}\n`);
    rows++;
  }
  if (rows !== entry.rows || hash.digest('hex') !== entry.sha256)
    throw new SnapshotProblem(`${entry.blob} is not what the manifest says (${rows} rows): nothing was restored`);
}

export interface RestoreOptions {
  /** Only this table (every table of the snapshot otherwise). */
  table?: string;
  /** Only rows of this partition, e.g. one holding's records `h~<REA>` in phyto. */
  partition?: string;
}

export interface RestoreDeps {
  tables: Tables;
  /** Every table the gateway owns: a snapshot's other tables are refused. */
  tableNames: readonly string[];
  container: ContainerClient;
  onProgress?: (p: Progress) => void;
}

export async function restoreBackup(
  deps: RestoreDeps,
  snapshot: string,
  options: RestoreOptions = {},
): Promise<{ table: string; rows: number }[]> {
  const manifest = await readManifest(deps.container, snapshot);
  const known = new Set<string>(deps.tableNames);
  const entries = manifest.tables.filter((t) => !options.table || t.name === options.table);
  if (options.table && entries.length === 0)
    throw new SnapshotProblem(`snapshot ${snapshot} has no table ${options.table}`);
  // Every blob is checked before any row is written: a damaged snapshot restores nothing.
  for (const entry of entries) await checkTableBlob(deps.container, entry);
  const report: { table: string; rows: number }[] = [];
  for (const entry of entries) {
    if (!known.has(entry.name)) throw new SnapshotProblem(`table ${entry.name} is not one of the gateway's`);
    const client = await deps.tables.table(entry.name);
    const transform = entry.name === TABLES.counters ? advanceCounter : (row: BackupRow) => row;
    const rows = await restoreTable(
      client,
      blobLines(deps.container, entry.blob),
      options.partition,
      transform,
      (rows, done) => deps.onProgress?.({ table: entry.name, rows, total: entry.rows, done }),
    );
    report.push({ table: entry.name, rows });
  }
  return report;
}

/**
 * Ids handed out after the snapshot was taken are not in it, but SIEX may hold records under them (an IdAjena is never
 * reused: docs/architecture.md, "Data"). A restored counter therefore resumes this far past its backed-up value: more
 * ids than the gateway hands out between two daily backups, and well within the 10 digits an IdAjena may have.
 */
export const COUNTER_RESTORE_GAP = 10_000_000;

function advanceCounter(row: BackupRow): BackupRow {
  const next = row.properties.next;
  if (!next) return row;
  const advanced = Number(next.value) + COUNTER_RESTORE_GAP;
  // Past Int32's range it is a Double, as the SDK writes such a number (Counters reads it back as a number).
  const type = next.type === 'Int32' && advanced > 2_147_483_647 ? 'Double' : next.type;
  return { ...row, properties: { ...row.properties, next: { value: String(advanced), type } } };
}

async function restoreTable(
  client: TableClient,
  lines: AsyncIterable<string>,
  partition: string | undefined,
  transform: (row: BackupRow) => BackupRow,
  progress: (rows: number, done: boolean) => void,
): Promise<number> {
  const inFlight = new Set<Promise<void>>();
  let failure: Error | undefined;
  let batch: TransactionAction[] = [];
  let batchKey = '';
  let batchBytes = 0;
  let rows = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const actions = batch;
    batch = [];
    batchBytes = 0;
    const sent: Promise<void> = client.submitTransaction(actions).then(
      () => void inFlight.delete(sent),
      (e: unknown) => {
        failure ??= e instanceof Error ? e : new Error(String(e));
        inFlight.delete(sent);
      },
    );
    inFlight.add(sent);
    if (inFlight.size >= RESTORE_CONCURRENCY) await Promise.race(inFlight);
    if (failure !== undefined) throw failure;
  };
  for await (const line of lines) {
    const row = transform(backupRowSchema.parse(JSON.parse(line)));
    if (partition !== undefined && row.partitionKey !== partition) continue;
    // Tables list rows partition by partition, so a transaction (one partition only) closes when the key changes.
    if (
      row.partitionKey !== batchKey ||
      batch.length === MAX_TRANSACTION_OPERATIONS ||
      batchBytes + line.length > MAX_BATCH_BYTES
    )
      await flush();
    batchKey = row.partitionKey;
    batch.push(['upsert', toEntity(row) as { partitionKey: string; rowKey: string }, 'Replace']);
    batchBytes += line.length;
    rows++;
    if (rows % PROGRESS_EVERY === 0) progress(rows, false);
  }
  await flush();
  await Promise.all(inFlight);
  if (failure !== undefined) throw failure;
  progress(rows, true);
  return rows;
}
