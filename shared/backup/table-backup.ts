import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { TableClient } from '@azure/data-tables';
import type { ContainerClient } from '@azure/storage-blob';
import { odata } from '../store/odata';
import { BackupLedger } from './backup-ledger';
import {
  AccountTable,
  accountTableLabel,
  BACKUP_FORMAT,
  Manifest,
  manifestBlob,
  PART_ROWS,
  partInfo,
  PartInfo,
  partMetadata,
  snapshotName,
  snapshotStart,
  tableBlob,
  tableDigest,
  tablePrefix,
  toBackupRow,
} from './snapshot-format';

/**
 * Backups of every table the gateway owns (RD 1311/2012: a farm keeps its treatment record for at least three years,
 * and the gateway holds that record). Each table is written in parts of at most PART_ROWS rows, streamed from the
 * listing, so memory holds one part and a run can stop between two parts when its time is up: the next run goes on
 * from the last part's last row (snapshot-format.ts). The manifest is written last, with each part's row count and
 * SHA-256, and its own SHA-256 is kept outside the backup account (backup-ledger.ts).
 */

/**
 * Tables are read and written through this: the gateway's TableStore, or one on other accounts (restore). `table` is
 * the first account's, `accountTable` any account's (shared/store/tables.ts), `accounts` says how many there are.
 */
export interface Tables {
  table(name: string): Promise<TableClient>;
  accountTable(account: number, name: string): Promise<TableClient>;
  readonly accounts: readonly unknown[];
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
  /** The tables to back up: every table the gateway owns, the core's and each record kind's
   * (GATEWAY_TABLES, shared/app/record-kinds.ts); tests take fewer. */
  tableNames: readonly string[];
  /**
   * Those of `tableNames` every data account holds, each account's copy backed up apart (the record kinds' tables,
   * FARM_TABLES in shared/app/record-kinds.ts); the others are the first account's alone. None by default.
   */
  farmTables?: readonly string[];
  container: ContainerClient;
  now: () => Date;
  /** Where the manifest's checksum is kept outside the backup account. */
  ledger?: BackupLedger;
  onProgress?: (p: Progress) => void;
  /** Epoch ms after which no new part is started: the snapshot is then left for the next run to finish. */
  deadline?: number;
  /** Rows per part (PART_ROWS; tests take fewer). */
  partRows?: number;
}

/** A written snapshot: its manifest and the SHA-256 of the manifest's text (what the ledger keeps). */
export interface WrittenSnapshot {
  manifest: Manifest;
  manifestSha256: string;
}

/** Tables written at once: enough to overlap their round trips, few enough not to be throttled. */
const TABLES_AT_ONCE = 3;

/** A snapshot taken now and written whole (the command line; tests). */
export async function takeBackup(deps: BackupDeps): Promise<Manifest> {
  const written = await writeSnapshot({ ...deps, deadline: undefined }, snapshotName(deps.now()));
  if (!written) throw new Error('the backup stopped before its manifest');
  return written.manifest;
}

/**
 * Writes the snapshot's missing parts, then its manifest: a snapshot begun by an earlier run goes on where it
 * stopped. Returns null when the deadline came first.
 */
export async function writeSnapshot(deps: BackupDeps, snapshot: string): Promise<WrittenSnapshot | null> {
  await deps.container.createIfNotExists();
  const units = backupScope(deps);
  const queue = [...units];
  const ended = new Map<AccountTable, PartInfo[]>();
  const worker = async () => {
    for (let unit = queue.shift(); unit !== undefined; unit = queue.shift()) {
      const parts = await writeTable(deps, snapshot, unit);
      if (parts) ended.set(unit, parts);
    }
  };
  await Promise.all(Array.from({ length: Math.min(TABLES_AT_ONCE, units.length) }, worker));
  if (ended.size < units.length) return null;
  const manifest: Manifest = {
    format: BACKUP_FORMAT,
    snapshot,
    started: snapshotStart(snapshot).toISOString(),
    finished: deps.now().toISOString(),
    tables: units.map((unit) => {
      const { name, account } = unit;
      const parts = ended
        .get(unit)!
        .map((info, i) => ({ blob: tableBlob(snapshot, name, i, account), rows: info.rows, sha256: info.sha256 }));
      const rows = parts.reduce((n, p) => n + p.rows, 0);
      return { name, ...(account === 0 ? {} : { account }), rows, sha256: tableDigest(parts), parts };
    }),
  };
  const text = JSON.stringify(manifest, null, 2);
  await deps.container
    .getBlockBlobClient(manifestBlob(snapshot))
    .upload(text, Buffer.byteLength(text), { blobHTTPHeaders: { blobContentType: 'application/json' } });
  const manifestSha256 = createHash('sha256').update(text).digest('hex');
  await deps.ledger?.record(snapshot, manifestSha256);
  return { manifest, manifestSha256 };
}

/** Every table of every account the backup takes: the farm tables in each account, the others in the first. */
function backupScope(deps: Pick<BackupDeps, 'tables' | 'tableNames' | 'farmTables'>): AccountTable[] {
  const everywhere = new Set(deps.farmTables ?? []);
  return deps.tables.accounts.flatMap((_, account) =>
    deps.tableNames.filter((name) => account === 0 || everywhere.has(name)).map((name) => ({ name, account })),
  );
}

/** The parts a table already has in the snapshot, in order, as their metadata says. */
async function writtenParts(container: ContainerClient, snapshot: string, unit: AccountTable): Promise<PartInfo[]> {
  const found: { name: string; info: PartInfo }[] = [];
  const prefix = tablePrefix(snapshot, unit.name, unit.account);
  for await (const item of container.listBlobsFlat({ prefix, includeMetadata: true })) {
    const info = partInfo(item.metadata);
    if (info) found.push({ name: item.name, info });
  }
  return found.sort((a, b) => a.name.localeCompare(b.name)).map((p) => p.info);
}

/** Writes a table's parts from where it stands to its end; the parts, or null when the deadline came first. */
async function writeTable(deps: BackupDeps, snapshot: string, unit: AccountTable): Promise<PartInfo[] | null> {
  const parts = await writtenParts(deps.container, snapshot, unit);
  const table = accountTableLabel(unit);
  let rows = parts.reduce((n, p) => n + p.rows, 0);
  while (!parts.at(-1)?.end) {
    if (deps.deadline !== undefined && deps.now().getTime() >= deps.deadline) return null;
    const part = await writePart(deps, snapshot, unit, parts.length, parts.at(-1)?.last ?? null, (n) =>
      deps.onProgress?.({ table, rows: rows + n, done: false }),
    );
    parts.push(part);
    rows += part.rows;
  }
  deps.onProgress?.({ table, rows, done: true });
  return parts;
}

const PROGRESS_EVERY = 1000;

/**
 * One part: at most PART_ROWS rows listed from after `after`, gzip'd into memory, then uploaded with what its
 * metadata says of it (known only once it is read), in one committed write.
 */
async function writePart(
  deps: BackupDeps,
  snapshot: string,
  unit: AccountTable,
  index: number,
  after: PartInfo['last'],
  progress: (rows: number) => void,
): Promise<PartInfo> {
  const client = await deps.tables.accountTable(unit.account, unit.name);
  const filter = after
    ? odata`PartitionKey gt ${after.partitionKey} or (PartitionKey eq ${after.partitionKey} and RowKey gt ${after.rowKey})`
    : undefined;
  const hash = createHash('sha256');
  let rows = 0;
  let last: PartInfo['last'] = null;
  let end = true;
  const listing = client.listEntities({ disableTypeConversion: true, queryOptions: { filter } });
  async function* lines(): AsyncGenerator<string> {
    for await (const entity of listing) {
      if (rows === (deps.partRows ?? PART_ROWS)) {
        end = false;
        return;
      }
      const row = toBackupRow(entity);
      const line = `${JSON.stringify(row)}\n`;
      hash.update(line);
      rows++;
      last = { partitionKey: row.partitionKey, rowKey: row.rowKey };
      if (rows % PROGRESS_EVERY === 0) progress(rows);
      yield line;
    }
  }
  const chunks: Buffer[] = [];
  for await (const chunk of Readable.from(lines()).pipe(createGzip())) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const info: PartInfo = { rows, sha256: hash.digest('hex'), last: last ?? after, end };
  await deps.container.getBlockBlobClient(tableBlob(snapshot, unit.name, index, unit.account)).uploadData(body, {
    metadata: partMetadata(info),
    blobHTTPHeaders: { blobContentType: 'application/x-ndjson', blobContentEncoding: 'gzip' },
  });
  return info;
}
