import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { BlobClient, ContainerClient } from '@azure/storage-blob';
import { Manifest, manifestBlob, manifestSchema, MANIFEST_BLOB, TableEntry, tableDigest } from './snapshot-format';

/**
 * Reads snapshots as they were written. The backup account keeps every version of a blob and protects each with the
 * immutability policy (infra/modules/backup.bicep), but overwriting a blob is still allowed: it makes a new current
 * version on top of the protected one. So a restore reads, for each blob of the snapshot, its oldest version, the one
 * the backup wrote, never what someone may have put on top of it; and it checks the manifest against a copy kept
 * outside the backup account (backup-ledger.ts) before it trusts the row counts and checksums inside it.
 */

export class SnapshotProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SnapshotProblem';
  }
}

/** A listed blob version: its name, and its version id when the account keeps versions (Azurite does not). */
export interface ListedVersion {
  name: string;
  versionId?: string;
}

/**
 * For each blob name, the version to read: the oldest one listed. Version ids are the times the versions were made
 * (ISO 8601 with 7 decimals, so they sort as text); a blob listed without one is the account's only copy.
 */
export function oldestVersions(items: Iterable<ListedVersion>): Map<string, string | undefined> {
  const out = new Map<string, string | undefined>();
  for (const { name, versionId } of items) {
    const known = out.get(name);
    if (!out.has(name) || (versionId !== undefined && (known === undefined || versionId < known)))
      out.set(name, versionId);
  }
  return out;
}

/** The blobs under a prefix, each as its protected (oldest) version. */
export async function protectedBlobs(container: ContainerClient, prefix: string): Promise<Map<string, BlobClient>> {
  const items: ListedVersion[] = [];
  for await (const item of container.listBlobsFlat({ prefix, includeVersions: true }))
    items.push({ name: item.name, versionId: item.versionId });
  const out = new Map<string, BlobClient>();
  for (const [name, versionId] of oldestVersions(items)) {
    const blob = container.getBlobClient(name);
    out.set(name, versionId ? blob.withVersion(versionId) : blob);
  }
  return out;
}

/** The complete snapshots in the container (those with a manifest, in any version), oldest first. */
export async function listSnapshots(container: ContainerClient): Promise<string[]> {
  const out = new Set<string>();
  if (!(await container.exists())) return [];
  for await (const item of container.listBlobsFlat({ includeVersions: true })) {
    const [snapshot, file, more] = item.name.split('/');
    if (snapshot && file === MANIFEST_BLOB && more === undefined) out.add(snapshot);
  }
  return [...out].sort();
}

/** The manifest as the backup wrote it, and the SHA-256 of its text, which the copy outside the account must match. */
export interface ReadManifest {
  manifest: Manifest;
  sha256: string;
}

export async function readManifest(
  container: ContainerClient,
  snapshot: string,
  expectedSha256?: string,
): Promise<ReadManifest> {
  const blob = (await protectedBlobs(container, manifestBlob(snapshot))).get(manifestBlob(snapshot));
  if (!blob) throw new SnapshotProblem(`no complete snapshot named ${snapshot}`);
  const text = await blob.downloadToBuffer();
  const sha256 = createHash('sha256').update(text).digest('hex');
  if (expectedSha256 !== undefined && sha256 !== expectedSha256.toLowerCase())
    throw new SnapshotProblem(
      `the manifest of ${snapshot} has SHA-256 ${sha256}, not ${expectedSha256} as the copy kept outside the backup account says: nothing was restored`,
    );
  const parsed = manifestSchema.safeParse(JSON.parse(text.toString('utf8')));
  if (!parsed.success || parsed.data.snapshot !== snapshot)
    throw new SnapshotProblem(`the manifest of ${snapshot} is not one this gateway writes`);
  return { manifest: parsed.data, sha256 };
}

/** A part's lines, as written (the service decompresses nothing: the gzip is the blob itself). */
export async function* partLines(blob: BlobClient): AsyncGenerator<string> {
  const download = await blob.download();
  const body = download.readableStreamBody;
  if (!body) throw new SnapshotProblem(`${blob.name} has no content`);
  const reader = createInterface({ input: Readable.from(body).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of reader) if (line) yield line;
}

/** Every part of a table's entry, checked against the manifest, as the blobs to read; throws on any difference. */
export async function checkedParts(blobs: Map<string, BlobClient>, entry: TableEntry): Promise<BlobClient[]> {
  let total = 0;
  const out: BlobClient[] = [];
  for (const part of entry.parts) {
    const blob = blobs.get(part.blob);
    if (!blob) throw new SnapshotProblem(`${part.blob} is missing: nothing was restored`);
    const hash = createHash('sha256');
    let rows = 0;
    for await (const line of partLines(blob)) {
      hash.update(`${line}\n`);
      rows++;
    }
    if (rows !== part.rows || hash.digest('hex') !== part.sha256)
      throw new SnapshotProblem(`${part.blob} is not what the manifest says (${rows} rows): nothing was restored`);
    total += rows;
    out.push(blob);
  }
  if (total !== entry.rows || tableDigest(entry.parts) !== entry.sha256)
    throw new SnapshotProblem(
      `table ${entry.name} is not what the manifest says (${total} rows): nothing was restored`,
    );
  return out;
}
