import { identity } from '../shared/store/azure-sdk';
import { Clock, systemClock } from '../shared/time/clock';

/**
 * The two azd deployment hooks of azure.yaml, which make a first `azd up` deterministic:
 *
 * - `wait-for-roles` (predeploy): Flex Consumption writes the uploaded package to its blob container with the
 *   function app's identity, so the upload fails while that identity's role, granted moments ago by the provision,
 *   has not propagated. Azure documents that role assignments take up to 10 minutes to take effect; the hook reads
 *   when the identity's assignments in the resource group were created and waits until the newest is that old.
 * - `verify-backend` (postdeploy): a direct call to the function host, without a token, must be refused with 401 by
 *   App Service authentication. Anything else answered means the backend is reachable around API Management, and the
 *   deployment fails.
 *
 * Usage (azd sets the variables from main.bicep's outputs): node dist/local/deploy-checks.js wait-for-roles|verify-backend
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

/** The creation times of a principal's role assignments under a scope (Azure Resource Manager, with the operator's login). */
async function roleAssignmentTimes(scope: string, principalId: string): Promise<string[]> {
  const token = await new (identity().DefaultAzureCredential)().getToken('https://management.azure.com/.default');
  const filter = encodeURIComponent(`assignedTo('${principalId}')`);
  const url = `https://management.azure.com${scope}/providers/Microsoft.Authorization/roleAssignments?api-version=2022-04-01&$filter=${filter}`;
  const res = await fetch(url, { headers: { authorization: `Bearer ${token.token}` } });
  if (!res.ok) throw new Error(`listing the role assignments of ${principalId} failed: HTTP ${res.status}`);
  const body = (await res.json()) as { value?: { properties?: { createdOn?: string } }[] };
  return (body.value ?? []).map((a) => a.properties?.createdOn ?? '');
}

function required(name: string): string {
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
  } else throw new Error('usage: deploy-checks.js wait-for-roles|verify-backend');
}

if (require.main === module)
  main(process.argv[2]).catch((e: unknown) => {
    console.error((e as Error).message);
    process.exit(1);
  });
