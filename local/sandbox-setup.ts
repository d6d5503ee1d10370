import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DateTime } from 'luxon';
import { ZONE } from '../shared/domain/dates';
import { identity } from '../shared/store/azure-sdk';
import { Clock, systemClock } from '../shared/time/clock';
import { buildDemoDataset } from './demo/build-dataset';
import { arm, remainingPropagation, required, roleAssignmentTimes } from './deploy-checks';
import { buildSimulatorPackage, zipPackage } from './siex-simulator/build-function-package';
import { officialCataloguesDir } from './siex-data';
import { findProjectRoot } from './stack';

/**
 * The sandbox profile's azd hooks (azure.yaml; docs/sandbox.md). Outside the sandbox profile (SIEX_GATEWAY_PROFILE, an
 * output of infra/main.bicep) each says so and does nothing.
 *
 * - `provision` (postprovision): once the operator's roles have propagated, the vault's SIEX credentials, which the gateway and the simulator both read
 *   (siex-username, siex-password), and the webhook signing key, each written when absent and never replaced, so a
 *   later provision keeps what the apps and the ERP teams already have; then the official SIEX catalogues and the
 *   sandbox dataset (the demo's farms, products and ROPO cards, no clients: buildDemoDataset's clients: false) imported
 *   into the data account by name, as `npm run admin` does for any environment.
 * - `deploy` (postdeploy): the simulator's package (local/siex-simulator/build-function-package.ts) deployed to its app
 *   by Flex Consumption's one-deploy with the operator's login; then, when SANDBOX_SMOKE_SID_KEY and
 *   SANDBOX_SMOKE_API_KEY are set (a client kept for it: docs/sandbox.md), the smoke collection against
 *   APIM_GATEWAY_URL, so a sandbox that does not work is known at `azd up`, not from an ERP.
 *
 * Usage: node dist/local/sandbox-setup.js provision|deploy
 */

export const SANDBOX_PROFILE = 'sandbox';

export function isSandbox(env: NodeJS.ProcessEnv): boolean {
  return env.SIEX_GATEWAY_PROFILE === SANDBOX_PROFILE;
}

/** A secret of 48 random bytes, base64 (as docs/operations.md makes the webhook signing key). */
export function newSecret(): string {
  return randomBytes(48).toString('base64');
}

/** The vault's secrets the sandbox needs, and what each is when it has to be made. */
export function sandboxSecrets(env: NodeJS.ProcessEnv): { name: string; make: () => string }[] {
  const username = env.SIEX_SIMULATOR_USERNAME;
  if (!username)
    throw new Error('SIEX_SIMULATOR_USERNAME is not set (azd sets it from the outputs of infra/main.bicep)');
  return [
    { name: 'siex-username', make: () => username },
    { name: 'siex-password', make: newSecret },
    { name: 'webhook-signing-key', make: newSecret },
  ];
}

/** The smoke run's arguments, or why there is none. */
export function smokeArgs(env: NodeJS.ProcessEnv): { args: string[] } | { skipped: string } {
  const sid = env.SANDBOX_SMOKE_SID_KEY;
  const api = env.SANDBOX_SMOKE_API_KEY;
  if (!sid || !api)
    return {
      skipped:
        'no smoke run: set SANDBOX_SMOKE_SID_KEY and SANDBOX_SMOKE_API_KEY (a client kept for it, docs/sandbox.md) to run the smoke collection after every deploy',
    };
  const url = env.APIM_GATEWAY_URL;
  if (!url) throw new Error('APIM_GATEWAY_URL is not set (azd sets it from the outputs of infra/main.bicep)');
  return { args: ['--url', url, '--sid-key', sid, '--api-key', api, '--quiet'] };
}

/** Key Vault's data plane with the operator's login; the token's audience is the vault's cloud's, from its address. */
async function vaultCall(vaultUri: string, method: 'GET' | 'PUT', name: string, body?: unknown): Promise<Response> {
  const host = new URL(vaultUri).host;
  const audience = `https://${host.split('.').slice(1).join('.')}/.default`;
  const token = await new (identity().DefaultAzureCredential)().getToken(audience);
  return fetch(new URL(`secrets/${encodeURIComponent(name)}?api-version=7.4`, vaultUri), {
    method,
    headers: { authorization: `Bearer ${token.token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function ensureSecrets(vaultUri: string, env: NodeJS.ProcessEnv): Promise<void> {
  for (const { name, make } of sandboxSecrets(env)) {
    const existing = await vaultCall(vaultUri, 'GET', name);
    if (existing.ok) {
      console.log(`Key Vault secret ${name}: kept`);
      continue;
    }
    if (existing.status !== 404)
      throw new Error(`reading Key Vault secret ${name}: HTTP ${existing.status} ${await existing.text()}`);
    const written = await vaultCall(vaultUri, 'PUT', name, { value: make() });
    if (!written.ok)
      throw new Error(`writing Key Vault secret ${name}: HTTP ${written.status} ${await written.text()}`);
    console.log(`Key Vault secret ${name}: created`);
  }
}

/** `node dist/local/<script> args` with the data account named, stopping at the first failure. */
function runNode(root: string, script: string, args: string[], env: NodeJS.ProcessEnv): void {
  const r = spawnSync(process.execPath, [path.join(root, 'dist/local', script), ...args], {
    cwd: root,
    env,
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error(`${script} ${args[0] ?? ''} failed (exit code ${r.status})`);
}

async function provision(root: string, env: NodeJS.ProcessEnv, clock: Clock): Promise<void> {
  // The operator's vault and table roles were granted by this provision: on a first `azd up` they may not have
  // propagated yet, so wait as the predeploy hook waits for the app's.
  const scope = `/subscriptions/${required('AZURE_SUBSCRIPTION_ID')}/resourceGroups/${required('AZURE_RESOURCE_GROUP')}`;
  const wait = remainingPropagation(await roleAssignmentTimes(scope, required('AZURE_PRINCIPAL_ID')), clock.now());
  if (wait > 0)
    console.log(`Waiting ${Math.ceil(wait / 1000)} s for your roles on the vault and the tables to propagate...`);
  await clock.sleep(wait);
  await ensureSecrets(required('AZURE_KEY_VAULT_URI'), env);
  // Azure is reached by account name only (its shared keys are off), as docs/operations.md loads any environment.
  const storage: NodeJS.ProcessEnv = {
    ...env,
    AzureWebJobsStorage__accountName: required('AZURE_STORAGE_ACCOUNT_NAME'),
  };
  delete storage.AzureWebJobsStorage;
  runNode(root, 'admin.js', ['import-catalogues', officialCataloguesDir(root)], storage);
  const campaign = DateTime.now().setZone(ZONE).year;
  const dir = path.join(root, '.local');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `sandbox-dataset-${campaign}.json`);
  writeFileSync(file, JSON.stringify(buildDemoDataset(campaign, { clients: false })));
  runNode(root, 'admin.js', ['import', file], storage);
}

/** Kudu's deployment states (DeployStatus): 3 failed, 4 succeeded. */
const DEPLOY_FAILED = 3;
const DEPLOY_SUCCEEDED = 4;

/** Flex Consumption's one-deploy of the simulator's zip, then its outcome, polled. */
async function deploySimulator(root: string, clock: Clock): Promise<void> {
  const site = `/subscriptions/${required('AZURE_SUBSCRIPTION_ID')}/resourceGroups/${required('AZURE_RESOURCE_GROUP')}/providers/Microsoft.Web/sites/${required('AZURE_SIEX_SIMULATOR_APP_NAME')}`;
  const app = (await arm('GET', `${site}?api-version=2024-11-01`, 'reading the simulator app')) as {
    properties?: { hostNameSslStates?: { name?: string; hostType?: string }[] };
  };
  const scm = app.properties?.hostNameSslStates?.find((h) => h.hostType === 'Repository')?.name;
  if (!scm) throw new Error('the simulator app has no deployment (Repository) host name');
  const zip = zipPackage(await buildSimulatorPackage(root));
  const token = await new (identity().DefaultAzureCredential)().getToken('https://management.azure.com/.default');
  const headers = { authorization: `Bearer ${token.token}` };
  const res = await fetch(`https://${scm}/api/publish?RemoteBuild=false`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/zip' },
    body: zip,
  });
  if (!res.ok) throw new Error(`deploying the SIEX simulator failed: HTTP ${res.status} ${await res.text()}`);
  for (let attempt = 1; attempt <= 60; attempt += 1) {
    const latest = await fetch(`https://${scm}/api/deployments/latest`, { headers });
    const body = latest.ok ? ((await latest.json()) as { status?: number; status_text?: string }) : {};
    if (body.status === DEPLOY_SUCCEEDED) return void console.log(`SIEX simulator deployed (${zip.length} bytes).`);
    if (body.status === DEPLOY_FAILED)
      throw new Error(`deploying the SIEX simulator failed: ${body.status_text ?? "see the app's deployment log"}`);
    await clock.sleep(5_000);
  }
  throw new Error('the SIEX simulator deployment did not finish in 5 minutes');
}

async function deploy(root: string, env: NodeJS.ProcessEnv, clock: Clock): Promise<void> {
  await deploySimulator(root, clock);
  const smoke = smokeArgs(env);
  if ('skipped' in smoke) return void console.log(smoke.skipped);
  runNode(root, 'smoke.js', smoke.args, env);
}

/** One hook's step; outside the sandbox profile, a line saying so and nothing else. */
export async function sandboxStep(
  command: string | undefined,
  env: NodeJS.ProcessEnv,
  clock: Clock = systemClock,
  log: (line: string) => void = console.log,
): Promise<void> {
  if (command !== 'provision' && command !== 'deploy') throw new Error('usage: sandbox-setup.js provision|deploy');
  if (!isSandbox(env)) return log(`Not the sandbox profile (SIEX_GATEWAY_PROFILE): no sandbox ${command} step.`);
  const root = findProjectRoot(__dirname);
  if (command === 'provision') await provision(root, env, clock);
  else await deploy(root, env, clock);
}

if (require.main === module)
  sandboxStep(process.argv[2], process.env).catch((e: unknown) => {
    console.error((e as Error).message);
    process.exit(1);
  });
