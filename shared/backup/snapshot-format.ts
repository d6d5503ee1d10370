import { z } from 'zod';

/**
 * How a table backup is written: one gzip'd NDJSON blob per table under a snapshot's folder, then the snapshot's
 * manifest, written last, so a snapshot without one is incomplete and never offered for a restore.
 *
 * A row is kept as Table Storage listed it with type conversion off: every property as `{ value, type }` with the
 * value as text, so an Int64, a DateTime with its 7 decimals, a Binary or a Guid comes back exactly as it was. Only
 * the ETag and Timestamp are left out: the service assigns both again on restore.
 */

export const BACKUP_FORMAT = 1;

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

export const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  snapshot: z.string(),
  /** When the backup started (ISO 8601, UTC): rows written after that may or may not be in it. */
  started: z.string(),
  finished: z.string(),
  tables: z.array(
    z.object({
      name: z.string(),
      blob: z.string(),
      rows: z.number().int().min(0),
      /** SHA-256 of the uncompressed NDJSON, checked again on restore. */
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
    }),
  ),
});
export type Manifest = z.infer<typeof manifestSchema>;

export const MANIFEST_BLOB = 'manifest.json';

/** A snapshot's name: its start time in UTC, sortable, and valid in a blob path (`2026-11-25T01-30-00Z`). */
export function snapshotName(started: Date): string {
  return started
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replaceAll(':', '-');
}

export function tableBlob(snapshot: string, table: string): string {
  return `${snapshot}/${table}.ndjson.gz`;
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
