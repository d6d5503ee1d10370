/** Storage queues, the Flex Consumption plan, and the function app: runtime, identity, deployment, azd tag. */
import { getProperty, literalValue, NOT_LITERAL } from '../bicep';
import { APP_QUEUES } from './contract';
import { Finding, gatewaySites, Infra, mainExpression, rel, resourcesOfType } from './model';

const FUNCTION_IDENTITY = /^identities\.outputs\.functionIdentityId$/;

/** The app's queues exist; Flex Consumption on Node 22, running as the function identity of identities.bicep. */
export function checkPlatform(infra: Infra): Finding[] {
  const out: Finding[] = [];
  const queueLists = infra.main ? literalValue(infra.main.vars.get('queueNames')) : NOT_LITERAL;
  const queues = Array.isArray(queueLists) ? queueLists : [];
  for (const q of APP_QUEUES)
    if (!queues.includes(q))
      out.push({
        check: 'platform',
        file: 'infra/main.bicep',
        message: `queue '${q}' is not in the literal 'queueNames'`,
      });

  const plans = resourcesOfType(infra, 'Microsoft.Web/serverfarms').filter((r) => !r.resource.existing);
  if (!plans.some(({ resource }) => literalValue(getProperty(resource.body, 'sku', 'tier')) === 'FlexConsumption'))
    out.push({ check: 'platform', file: 'infra', message: 'no Flex Consumption plan (sku tier FlexConsumption)' });
  for (const { file, resource } of plans)
    if (!getProperty(resource.body, 'properties', 'zoneRedundant'))
      out.push({
        check: 'platform',
        file: rel(infra, file.file),
        message: `plan ${resource.symbol}: properties.zoneRedundant must be set (from the zoneRedundant parameter)`,
      });
  // The sandbox's SIEX simulator is not the gateway's app (sandbox.ts checks it).
  const sites = gatewaySites(infra);
  const [only] = sites;
  if (sites.length !== 1 || !only) {
    out.push({ check: 'platform', file: 'infra', message: `expected one function app, found ${sites.length}` });
    return out;
  }
  const { file, resource: site } = only;
  const siteFile = rel(infra, file.file);
  const runtime = literalValue(getProperty(site.body, 'properties', 'functionAppConfig', 'runtime'));
  if (JSON.stringify(runtime) !== JSON.stringify({ name: 'node', version: '22' }))
    out.push({
      check: 'platform',
      file: siteFile,
      message: `functionAppConfig.runtime must be node 22, is ${runtime === NOT_LITERAL ? 'computed' : JSON.stringify(runtime)}`,
    });

  // One identity for everything the app reaches, created before the site (identities.bicep): the site, its Key Vault
  // references and its deployment package all name it.
  const assigned = objectKeysOf(getProperty(site.body, 'identity', 'userAssignedIdentities'));
  if (
    literalValue(getProperty(site.body, 'identity', 'type')) !== 'UserAssigned' ||
    assigned.length !== 1 ||
    !FUNCTION_IDENTITY.test(mainExpression(infra, file, assigned[0]))
  )
    out.push({
      check: 'platform',
      file: siteFile,
      message: 'the function app must run as the function identity of identities.bicep, and only as it (UserAssigned)',
    });
  const storageAuth = getProperty(
    site.body,
    'properties',
    'functionAppConfig',
    'deployment',
    'storage',
    'authentication',
  );
  if (
    literalValue(getProperty(storageAuth, 'type')) !== 'UserAssignedIdentity' ||
    !FUNCTION_IDENTITY.test(mainExpression(infra, file, getProperty(storageAuth, 'userAssignedIdentityResourceId')))
  )
    out.push({
      check: 'platform',
      file: siteFile,
      message: 'the deployment package must be read with the function identity (UserAssignedIdentity)',
    });
  if (
    !FUNCTION_IDENTITY.test(
      mainExpression(infra, file, getProperty(site.body, 'properties', 'keyVaultReferenceIdentity')),
    )
  )
    out.push({
      check: 'platform',
      file: siteFile,
      message:
        'keyVaultReferenceIdentity must be the function identity (a user-assigned identity is not picked by default)',
    });
  const tags = getProperty(site.body, 'tags');
  if (!tags || !/'azd-service-name'\s*:\s*'api'/.test(tags.text))
    out.push({
      check: 'platform',
      file: siteFile,
      message: "the function app must carry the tag 'azd-service-name': 'api' (azure.yaml service)",
    });
  return out;
}

/** The key expressions of an object literal whose keys are interpolated strings (`'${identityId}': {}`). */
function objectKeysOf(object: ReturnType<typeof getProperty>) {
  return (object?.namedChildren ?? [])
    .filter((p) => p.type === 'object_property')
    .map((p) => p.namedChildren[0])
    .map((key) =>
      key?.type === 'string' ? key.namedChildren.find((c) => c.type === 'interpolation')?.namedChildren[0] : key,
    );
}
