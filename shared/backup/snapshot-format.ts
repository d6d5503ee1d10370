import { createHash } from 'node:crypto';
import { z } from 'zod';

/**
 * How a table backup is written. Format 2 (issue 36): each table in parts, a part a contiguous run of at most
 * PART_ROWS rows in the order Table Storage lists them (partition key, then row key), one gzip'd NDJSON blob each
 * under `<snapshot>/<table>/`; the snapshot's manifest is written last, once every table's last part is there, so a
 * snapshot without one is incomplete and never offered for a restore. A part is written whole or not at all (a block
 * blob's blocks are committed at the end), and records in its metadata how many rows it holds, their SHA-256, the
 * last row's keys (where the next part starts) and whether the table ended in it: a backup cut short by its function's
 * time-out goes on from there at the next run. Format 1 (issue 27): one blob per table, `<snapshot>/<table>.ndjson.gz`;
 * still read.
 *
 * A row is kept as Table Storage listed it with type conversion off: every property as `{ value, type }` with the
 * value as text, so an Int64, a DateTime with its 7 decimals, a Binary or a Guid comes back exactly as it was. Only
 * the ETag and Timestamp are left out: the service assigns both again on restore.
 */

export const BACKUP_FORMAT = 2;

/** Rows per part: about 15 seconds of listing and upload each, so a run's time budget ends between parts. */
export const PART_ROWS = 50_000;

const EDM_TYPES = ['Binary', 'Boolean', 'DateTime', 'Double', 'Guid', 'Int32', 'Int64', 'String'] as const;
type EdmType = (typeof EDM_TYPES)[number];

/** A property as listed with `disableTypeConversion`: the value as text, and its EDM type. */
interface ListedProperty {
  value: string;
  type: EdmType;
}

export const backupRowSchema = z.object({
  partitionKey: z.string(),
  rowKey: z.string(),
  properties: z.record(z.string(), z.object({ value: z.string(), type: z.enum(EDM_TYPES) })),
});
export type BackupRow = z.infer<typeof backupRowSchema>;

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

const partSchema = z.object({
  blob: z.string(),
  rows: z.number().int().min(0),
  /** SHA-256 of the part's uncompressed NDJSON, checked again on restore. */
  sha256: sha256Hex,
});
export type PartEntry = z.infer<typeof partSchema>;

const snapshotTimes = {
  snapshot: z.string(),
  /** When the backup started (ISO 8601, UTC): rows written after that may or may not be in it. */
  started: z.string(),
  finished: z.string(),
};

const manifestV1Schema = z.object({
  format: z.literal(1),
  ...snapshotTimes,
  tables: z.array(z.object({ name: z.string(), blob: z.string(), rows: z.number().int().min(0), sha256: sha256Hex })),
});

const manifestV2Schema = z.object({
  format: z.literal(2),
  ...snapshotTimes,
  tables: z.array(
    z.object({
      name: z.string(),
      /**
       * The data account the table is of, its position in STORAGE_ACCOUNTS (issue 37): each account's copy of a record
       * kind's table is an entry of its own. Absent, the first account's, as in every snapshot written before.
       */
      account: z.number().int().min(1).optional(),
      rows: z.number().int().min(0),
      /** tableDigest of its parts. */
      sha256: sha256Hex,
      parts: z.array(partSchema),
    }),
  ),
});
export type Manifest = z.infer<typeof manifestV2Schema>;
export type TableEntry = Manifest['tables'][number];

/**
 * A table's checksum: the SHA-256 of its parts' checksums, in order, one a line. Parts are written by different runs,
 * so no run sees the whole table's text; this still ties every part, and their order, to the manifest.
 */
export function tableDigest(parts: readonly Pick<PartEntry, 'sha256'>[]): string {
  return createHash('sha256')
    .update(parts.map((p) => `${p.sha256}\n`).join(''))
    .digest('hex');
}

/** A manifest of either format, read as format 2 (a format 1 table is one part). */
export const manifestSchema = z.union([manifestV1Schema, manifestV2Schema]).transform((m): Manifest =>
  m.format === 2
    ? m
    : {
        ...m,
        format: 2,
        tables: m.tables.map(({ name, blob, rows, sha256 }) => ({
          name,
          rows,
          sha256: tableDigest([{ sha256 }]),
          parts: [{ blob, rows, sha256 }],
        })),
      },
);

export const MANIFEST_BLOB = 'manifest.json';

/** A snapshot's name: its start time in UTC, sortable, and valid in a blob path (`2026-11-25T01-30-00Z`). */
export function snapshotName(started: Date): string {
  return started
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replaceAll(':', '-');
}

/** When the snapshot started, from its name. */
export function snapshotStart(snapshot: string): Date {
  return new Date(snapshot.replace(/T(\d\d)-(\d\d)-(\d\d)Z$/, 'T$1:$2:$3Z'));
}

export const manifestBlob = (snapshot: string): string => `${snapshot}/${MANIFEST_BLOB}`;

/**
 * The folder of a table's parts in a snapshot: the first account's tables where they always were, another account's
 * in a folder of its own (`account-2/`; a table's name starts with a letter, so the two never meet).
 */
export const tablePrefix = (snapshot: string, table: string, account = 0): string =>
  account === 0 ? `${snapshot}/${table}/` : `${snapshot}/account-${account}/${table}/`;

/** A table's part `n` (0 the first), named so that the parts list in order. */
export function tableBlob(snapshot: string, table: string, part = 0, account = 0): string {
  return `${tablePrefix(snapshot, table, account)}${String(part).padStart(5, '0')}.ndjson.gz`;
}

/** A table of one data account, as a backup takes it and a restore writes it back (the account's number, 0 the first). */
export interface AccountTable {
  name: string;
  account: number;
}

/** How a table of an account is named to an operator: its name, with the account's number after all but the first. */
export const accountTableLabel = ({ name, account }: AccountTable): string =>
  account === 0 ? name : `${name}@${account}`;

/**
 * What a part's blob metadata says of it. Metadata travels in HTTP headers, so the keys of its last row go as
 * base64url: a key may hold any character a header may not.
 */
export interface PartInfo {
  rows: number;
  sha256: string;
  /** The keys of its last row: the next part lists from after them. */
  last: { partitionKey: string; rowKey: string } | null;
  /** The table's listing ended in this part. */
  end: boolean;
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
const unb64 = (s: string) => Buffer.from(s, 'base64url').toString('utf8');

export function partMetadata(info: PartInfo): Record<string, string> {
  return {
    rows: String(info.rows),
    sha256: info.sha256,
    end: String(info.end),
    ...(info.last ? { lastpk: b64(info.last.partitionKey), lastrk: b64(info.last.rowKey) } : {}),
  };
}

export function partInfo(metadata: Record<string, string> | undefined): PartInfo | null {
  const rows = Number(metadata?.rows);
  const sha256 = sha256Hex.safeParse(metadata?.sha256);
  if (!metadata || !Number.isInteger(rows) || !sha256.success) return null;
  const last =
    metadata.lastpk !== undefined && metadata.lastrk !== undefined
      ? { partitionKey: unb64(metadata.lastpk), rowKey: unb64(metadata.lastrk) }
      : null;
  return { rows, sha256: sha256.data, last, end: metadata.end === 'true' };
}

/** A listed entity as a backup row: its keys, and every property but the service's own. */
export function toBackupRow(entity: Record<string, unknown>): BackupRow {
  const properties: Record<string, ListedProperty> = {};
  for (const [name, value] of Object.entries(entity)) {
    if (name === 'partitionKey' || name === 'rowKey' || name === 'etag' || name === 'timestamp') continue;
    properties[name] = value as ListedProperty;
  }
  return { partitionKey: String(entity.partitionKey), rowKey: String(entity.rowKey), properties };
}

/**
 * A property as the SDK must send it back. Numbers and booleans go as JSON numbers and booleans with their type
 * annotation (the OData JSON format Table Storage documents; a quoted Int32 is accepted by Azurite, not promised by
 * Azure); Int64, DateTime, Guid and Binary go as annotated text, which is their JSON form.
 */
function toWireValue(p: ListedProperty): unknown {
  switch (p.type) {
    case 'String':
      return p.value;
    case 'Boolean':
      return { value: p.value === 'true', type: 'Boolean' };
    case 'Int32':
    case 'Double':
      return { value: Number(p.value), type: p.type };
    default:
      return { value: p.value, type: p.type };
  }
}

export function toEntity(row: BackupRow): Record<string, unknown> {
  const entity: Record<string, unknown> = { partitionKey: row.partitionKey, rowKey: row.rowKey };
  for (const [name, p] of Object.entries(row.properties)) entity[name] = toWireValue(p);
  return entity;
}
