import { deletionIn } from '../../shared/backup/deletion-log';
import { manifestSchema, partInfo, partMetadata, tableDigest } from '../../shared/backup/snapshot-format';
import { oldestVersions } from '../../shared/backup/snapshot-reader';
import { pointerRowKey } from '../../shared/records/record-keys';

describe('what a restore reads of a snapshot (issue 36)', () => {
  it('reads each blob at its oldest version: what the backup wrote, not what was put on top of it', () => {
    const versions = oldestVersions([
      { name: 's/manifest.json', versionId: '2026-11-25T01:31:02.1000000Z' },
      { name: 's/manifest.json', versionId: '2026-11-25T01:31:01.9000000Z' },
      { name: 's/manifest.json', versionId: '2026-12-01T09:00:00.0000000Z' },
      { name: 's/phyto/00000.ndjson.gz' },
    ]);
    expect([...versions]).toEqual([
      ['s/manifest.json', '2026-11-25T01:31:01.9000000Z'],
      ['s/phyto/00000.ndjson.gz', undefined],
    ]);
  });

  it("keeps a part's last row keys through blob metadata, whatever characters they hold", () => {
    const info = {
      rows: 2,
      sha256: 'a'.repeat(64),
      last: { partitionKey: 'h~ES46 é/#?', rowKey: 'v~0000000012~000002' },
      end: false,
    };
    const metadata = partMetadata(info);
    expect(Object.values(metadata).every((v) => /^[\x21-\x7e]*$/.test(v))).toBe(true);
    expect(partInfo(metadata)).toEqual(info);
    expect(partInfo({ rows: '2' })).toBeNull();
    expect(partInfo(undefined)).toBeNull();
  });

  it('reads a format-1 manifest as one part per table, so the snapshots taken before parts still restore', () => {
    const sha256 = 'b'.repeat(64);
    const manifest = manifestSchema.parse({
      format: 1,
      snapshot: 's',
      started: '2026-11-25T01:30:00.000Z',
      finished: '2026-11-25T01:31:00.000Z',
      tables: [{ name: 'phyto', blob: 's/phyto.ndjson.gz', rows: 3, sha256 }],
    });
    expect(manifest.tables).toEqual([
      {
        name: 'phyto',
        rows: 3,
        sha256: tableDigest([{ sha256 }]),
        parts: [{ blob: 's/phyto.ndjson.gz', rows: 3, sha256 }],
      },
    ]);
  });

  it("finds a deletion in a deleted record's pointer row, and in nothing else", () => {
    const row = (rowKey: string, state: string) => ({
      partitionKey: 'h~ES460000000001',
      rowKey,
      properties: {
        state: { value: state, type: 'String' as const },
        farmId: { value: '7', type: 'Int32' as const },
      },
    });
    expect(deletionIn('phyto', row(pointerRowKey(12), 'deleted'))).toEqual({ table: 'phyto', farmId: 7, id: 12 });
    expect(deletionIn('phyto', row(pointerRowKey(12), 'active'))).toBeNull();
    expect(deletionIn('phyto', row('v~0000000012~000002', 'deleted'))).toBeNull();
    expect(deletionIn('phyto', row('i~12', 'deleted'))).toBeNull();
  });
});
