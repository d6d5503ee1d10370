import { identity } from '../shared/store/azure-sdk';
import { Clock, systemClock } from '../shared/time/clock';

/**
 * The azd hooks of azure.yaml: two make a first `azd up` deterministic, one proves a deployment complete, one cleans
 * up after `azd down`:
 *
 * - `wait-for-roles` (predeploy): Flex Consumption writes the uploaded package to its blob container with the
 *   function app's identity, so the upload fails while that identity's role, granted moments ago by the provision,
 *   has not propagated. Azure documents that role assignments take up to 10 minutes to take effect; the hook reads
 *   when the identity's assignments in the resource group were created and waits until the newest is that old.
 * - `verify-backend` (postdeploy): a direct call to the function host, without a token, must be refused with 401 by
 *   App Service authentication. Anything else answered means the backend is reachable around API Management, and the
 *   deployment fails.
 * - `verify-key-vault-references` (postdeploy): every Key Vault reference of the app's settings must resolve. Through
 *   the private endpoint (vnetEnabled) nothing else proves it: the app starts with an unresolved reference left as its
 *   own text, and exports fail later. A secret the operators have not uploaded yet (SecretNotFound) fails a production
 *   deployment, and is a warning elsewhere; anything else (the vault unreachable, access denied) fails every one.
 * - `teardown` (postdown): `azd down` deletes the resource group, and leaves what lives outside it: the subscription's
 *   activity-log diagnostic setting, the e-mail sender's custom role definition, and the gateway's Entra ID application.
 *   This deletes them.
 *
 * Usage (azd sets the variables from main.bicep's outputs):
 * node dist/local/deploy-checks.js wait-for-roles|verify-backend|verify-key-vault-references|teardown
 */

/** "Azure role assignments can take up to 10 minutes to propagate" (Azure RBAC troubleshooting). */
export const ROLE_PROPAGATION_MS = 10 * 60_000;

/** How long still to wait for assignments created at `createdOn` (ISO times) to have propagated at `now`. */
export function remainingPropagation(createdOn: string[], now: number): number {
  const newest = Math.max(...createdOn.map((t) => Date.parse(t)).filter((t) => Number.isFinite(t)));
  return Number.isFinite(newest) ? Math.max(0, newest + ROLE_PROPAGATION_MS - now) : 0;
}

export type BackendVerdict = 'refused' | 'open' | 'retry';

/**
 * What one answer of the function host, to a call without a token, says: 401 is App Service authentication refusing
 * it (the only good answer); 5xx, 429 and no answer are a host still starting, worth another try; anything else got
 * past authentication or was never behind it.
 */
export function backendVerdict(status: number | undefined): BackendVerdict {
  if (status === 401) return 'refused';
  if (status === undefined || status === 429 || status >= 500) return 'retry';
  return 'open';
}

interface VerifyOptions {
  attempts?: number;
  delayMs?: number;
  clock?: Clock;
  fetchFn?: typeof fetch;
}

/** Calls `url` without credentials until it answers something other than "retry"; throws unless that is 401. */
export async function verifyBackend(url: string, options: VerifyOptions = {}): Promise<void> {
  const { attempts = 20, delayMs = 15_000, clock = systemClock, fetchFn = fetch } = options;
  let last = 'no answer';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    let status: number | undefined;
    try {
      status = (await fetchFn(url, { redirect: 'manual', signal: AbortSignal.timeout(30_000) })).status;
      last = `HTTP ${status}`;
    } catch (e) {
      last = (e as Error).message;
    }
    const verdict = backendVerdict(status);
    if (verdict === 'refused') return;
    if (verdict === 'open')
      throw new Error(
        `${url} answered ${last} without a token: the backend must answer 401 to anyone but API Management`,
      );
    if (attempt < attempts) await clock.sleep(delayMs);
  }
  throw new Error(`${url} did not answer 401 after ${attempts} tries (last: ${last})`);
}

/** A Key Vault reference of an app setting, as App Service reports it (`config/configreferences/appsettings`). */
export interface ReferenceStatus {
  name: string;
  /** Resolved, or why not: SecretNotFound, VaultNotFound, AccessToKeyVaultDenied, FetchTimedOut... (Initialized: not yet). */
  status: string;
  details?: string;
}

/**
 * What the app's references say of a deployment: the settings whose secret is not there yet, and the ones that cannot
 * resolve at all. A missing secret is the operators' step still to do (docs/operations.md, "SIEX certificate and
 * secrets"); the others are the network or the roles.
 */
export function referenceVerdict(references: ReferenceStatus[]): { missing: string[]; broken: string[] } {
  const describe = (r: ReferenceStatus) => `${r.name} (${r.status}${r.details ? `: ${r.details}` : ''})`;
  return {
    missing: references.filter((r) => r.status === 'SecretNotFound').map(describe),
    broken: references.filter((r) => r.status !== 'Resolved' && r.status !== 'SecretNotFound').map(describe),
  };
}

/** Azure Resource Manager with the operator's login: the JSON answer, or an error naming what failed. */
export async function arm(method: string, path: string, what: string): Promise<unknown> {
  const token = await new (identity().DefaultAzureCredential)().getToken('https://management.azure.com/.default');
  const res = await fetch(`https://management.azure.com${path}`, {
    method,
    headers: { authorization: `Bearer ${token.token}` },
  });
  if (!res.ok && !(method === 'DELETE' && res.status === 404))
    throw new Error(`${what} failed: HTTP ${res.status} ${await res.text()}`);
  return res.status === 204 || method === 'DELETE' ? null : res.json();
}

/** The creation times of a principal's role assignments under a scope. */
export async function roleAssignmentTimes(scope: string, principalId: string): Promise<string[]> {
  const filter = encodeURIComponent(`assignedTo('${principalId}')`);
  const body = (await arm(
    'GET',
    `${scope}/providers/Microsoft.Authorization/roleAssignments?api-version=2022-04-01&$filter=${filter}`,
    `listing the role assignments of ${principalId}`,
  )) as { value?: { properties?: { createdOn?: string } }[] };
  return (body.value ?? []).map((a) => a.properties?.createdOn ?? '');
}

/** The app's Key Vault references, read again from the vault first (the platform otherwise keeps them 24 hours). */
async function keyVaultReferences(site: string, clock: Clock): Promise<ReferenceStatus[]> {
  const api = 'api-version=2022-03-01';
  await arm(
    'POST',
    `${site}/config/configreferences/appsettings/refresh?${api}`,
    'refreshing the Key Vault references',
  );
  for (let attempt = 1; ; attempt++) {
    const body = (await arm(
      'GET',
      `${site}/config/configreferences/appsettings?${api}`,
      'reading the Key Vault references',
    )) as {
      value?: { name?: string; properties?: { status?: string; details?: string } }[];
    };
    const references = (body.value ?? []).map((r) => ({
      name: r.name ?? '?',
      status: r.properties?.status ?? 'Initialized',
      details: r.properties?.details,
    }));
    if (attempt === 20 || references.every((r) => r.status !== 'Initialized')) return references;
    await clock.sleep(15_000);
  }
}

/** Fails when a reference cannot resolve; a secret not uploaded yet fails production only. */
async function verifyKeyVaultReferences(site: string, production: boolean, clock: Clock): Promise<void> {
  const references = await keyVaultReferences(site, clock);
  const { missing, broken } = referenceVerdict(references);
  if (broken.length > 0)
    throw new Error(
      `Key Vault references that do not resolve: ${broken.join(', ')}. Check the vault's network and the app's role.`,
    );
  if (missing.length > 0) {
    const message = `secrets not uploaded yet: ${missing.join(', ')} (docs/operations.md, "SIEX certificate and secrets")`;
    if (production) throw new Error(`${message}; the deployment is complete once they resolve: azd deploy again`);
    console.warn(`warning: ${message}`);
  }
  console.log(`${references.length - missing.length} Key Vault reference(s) resolve.`);
}

/** Deletes what `azd down` leaves outside the resource group. */
async function teardown(subscriptionId: string): Promise<void> {
  const setting = process.env.AZURE_ACTIVITY_LOG_SETTING;
  if (setting)
    await arm(
      'DELETE',
      `/subscriptions/${subscriptionId}/providers/Microsoft.Insights/diagnosticSettings/${setting}?api-version=2021-05-01-preview`,
      `deleting the activity-log setting ${setting}`,
    );
  const role = process.env.AZURE_EMAIL_SENDER_ROLE_ID;
  if (role) await arm('DELETE', `${role}?api-version=2022-04-01`, `deleting the custom role ${role}`);
  const app = process.env.AZURE_API_APP_CLIENT_ID;
  if (app) {
    const token = await new (identity().DefaultAzureCredential)().getToken('https://graph.microsoft.com/.default');
    const res = await fetch(`https://graph.microsoft.com/v1.0/applications(appId='${app}')`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token.token}` },
    });
    if (!res.ok && res.status !== 404)
      throw new Error(`deleting the Entra ID application ${app} failed: HTTP ${res.status}`);
  }
  console.log(
    'Removed what azd down leaves: the activity-log setting, the e-mail sender role, the Entra ID application.',
  );
}

export function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (azd sets it from the outputs of infra/main.bicep)`);
  return value;
}

async function main(command: string | undefined): Promise<void> {
  if (command === 'wait-for-roles') {
    const scope = `/subscriptions/${required('AZURE_SUBSCRIPTION_ID')}/resourceGroups/${required('AZURE_RESOURCE_GROUP')}`;
    const wait = remainingPropagation(
      await roleAssignmentTimes(scope, required('AZURE_FUNCTION_PRINCIPAL_ID')),
      systemClock.now(),
    );
    if (wait > 0) console.log(`Waiting ${Math.ceil(wait / 1000)} s for the function app's roles to propagate...`);
    await systemClock.sleep(wait);
  } else if (command === 'verify-backend') {
    const url = `https://${required('AZURE_FUNCTION_HOST_NAME')}/v1/openapi.json`;
    await verifyBackend(url);
    console.log(`${url} answers 401 without a token: only API Management gets in.`);
  } else if (command === 'verify-key-vault-references') {
    const site = `/subscriptions/${required('AZURE_SUBSCRIPTION_ID')}/resourceGroups/${required('AZURE_RESOURCE_GROUP')}/providers/Microsoft.Web/sites/${required('AZURE_FUNCTION_APP_NAME')}`;
    await verifyKeyVaultReferences(site, process.env.API_SERVICE_SIEX_PRODUCT === 'api-service-siex', systemClock);
  } else if (command === 'teardown') {
    await teardown(required('AZURE_SUBSCRIPTION_ID'));
  } else throw new Error('usage: deploy-checks.js wait-for-roles|verify-backend|verify-key-vault-references|teardown');
}

if (require.main === module)
  main(process.argv[2]).catch((e: unknown) => {
    console.error((e as Error).message);
    process.exit(1);
  });
