import { spawn } from 'node:child_process';
import path from 'node:path';
import { findProjectRoot } from '../../local/stack';
import { tableEndpointOf } from '../../shared/config/storage-accounts';
import { storageConnection, storageSettings } from './storage';

const ROOT = findProjectRoot(__dirname);

/**
 * `npm run admin -- ...` as operators run it: the compiled command in its own process, on the test storage, or with
 * no connection string at all (`connection` null: storage by account name, as against Azure). On the shared stack's
 * first account (by any queue endpoint) it is given the stack's other data accounts too, as the gateway is.
 */
export function runAdminCli(
  args: string[],
  connection: string | null = storageConnection(),
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete childEnv.AzureWebJobsStorage;
  if (connection !== null) childEnv.AzureWebJobsStorage = connection;
  if (connection !== null && sameAccount(connection, storageConnection()))
    Object.assign(
      childEnv,
      storageSettings((c, account) => (account === 0 ? connection : c)),
    );
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

/** Whether two connection strings reach the same table endpoint (the same account, whatever their queues). */
function sameAccount(a: string, b: string): boolean {
  return tableEndpointOf({ connectionString: a }) === tableEndpointOf({ connectionString: b });
}
