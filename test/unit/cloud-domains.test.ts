import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The backups' code names no cloud's domain (issue 36, L-findings): in Azure the backup account's endpoint is its own
 * (primaryEndpoints.blob, passed by the templates as BACKUP_BLOB_ENDPOINT), so the same code serves any cloud. The
 * templates are held to the same by test/infra (checks/edges.ts).
 */
const ROOT = path.resolve(__dirname, '../..');
const files = [
  ...readdirSync(path.join(ROOT, 'shared/backup')).map((f) => `shared/backup/${f}`),
  'local/admin-backup.ts',
];

it.each(files)('%s writes no *.core.windows.net address', (file) => {
  expect(readFileSync(path.join(ROOT, file), 'utf8')).not.toMatch(/core\.windows\.net/);
});
