import { spawn } from 'node:child_process';
import path from 'node:path';
import { findProjectRoot } from '../../local/stack';
import { storageConnection } from './storage';

const ROOT = findProjectRoot(__dirname);

/**
 * `npm run admin -- ...` as operators run it: the compiled command in its own process, on the test storage, or with
 * no connection string at all (`connection` null: storage by account name, as against Azure).
 */
export function runAdminCli(
  args: string[],
  connection: string | null = storageConnection(),
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete childEnv.AzureWebJobsStorage;
  if (connection !== null) childEnv.AzureWebJobsStorage = connection;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'dist/local/admin.js'), ...args], {
      cwd: ROOT,
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
