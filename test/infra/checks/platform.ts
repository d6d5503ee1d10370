/** Storage, the function app and the roles of its identity. */
import type { Node } from 'web-tree-sitter';
import { BicepFile, getProperty, literalValue, NOT_LITERAL } from '../bicep';
import { EXPORT_QUEUES, ROLE_IDS } from './contract';
import { Finding, Infra, rel, resourcesOfType } from './model';

/** Shared keys off, the export queues exist, Flex Consumption on Node 22 with a system identity and its roles. */
export function checkPlatform(infra: Infra): Finding[] {
  const out: Finding[] = [];
  const accounts = resourcesOfType(infra, 'Microsoft.Storage/storageAccounts').filter((r) => !r.resource.existing);
  if (accounts.length === 0) out.push({ check: 'platform', file: 'infra', message: 'no storage account' });
  for (const { file, resource } of accounts)
    if (literalValue(getProperty(resource.body, 'properties', 'allowSharedKeyAccess')) !== false)
      out.push({
        check: 'platform',
        file: rel(infra, file.file),
        message: `storage account ${resource.symbol}: allowSharedKeyAccess must be false (identity everywhere)`,
      });

  const queueLists = infra.main ? literalValue(infra.main.vars.get('queueNames')) : NOT_LITERAL;
  const queues = Array.isArray(queueLists) ? queueLists : [];
  for (const q of EXPORT_QUEUES)
    if (!queues.includes(q))
      out.push({
        check: 'platform',
        file: 'infra/main.bicep',
        message: `queue '${q}' is not in the literal 'queueNames'`,
      });

  const plans = resourcesOfType(infra, 'Microsoft.Web/serverfarms').filter((r) => !r.resource.existing);
  if (!plans.some(({ resource }) => literalValue(getProperty(resource.body, 'sku', 'tier')) === 'FlexConsumption'))
    out.push({ check: 'platform', file: 'infra', message: 'no Flex Consumption plan (sku tier FlexConsumption)' });
  const sites = resourcesOfType(infra, 'Microsoft.Web/sites').filter((r) => !r.resource.existing);
  if (sites.length !== 1) {
    out.push({ check: 'platform', file: 'infra', message: `expected one function app, found ${sites.length}` });
    return out;
  }
  const { file, resource: site } = sites[0];
  const siteFile = rel(infra, file.file);
  const runtime = literalValue(getProperty(site.body, 'properties', 'functionAppConfig', 'runtime'));
  if (JSON.stringify(runtime) !== JSON.stringify({ name: 'node', version: '22' }))
    out.push({
      check: 'platform',
      file: siteFile,
      message: `functionAppConfig.runtime must be node 22, is ${runtime === NOT_LITERAL ? 'computed' : JSON.stringify(runtime)}`,
    });
  if (literalValue(getProperty(site.body, 'identity', 'type')) !== 'SystemAssigned')
    out.push({ check: 'platform', file: siteFile, message: 'the function app needs a system-assigned identity' });
  if (
    literalValue(
      getProperty(site.body, 'properties', 'functionAppConfig', 'deployment', 'storage', 'authentication', 'type'),
    ) !== 'SystemAssignedIdentity'
  )
    out.push({
      check: 'platform',
      file: siteFile,
      message: 'the deployment package must be read with the system-assigned identity',
    });
  const tags = getProperty(site.body, 'tags');
  if (!tags || !/'azd-service-name'\s*:\s*'api'/.test(tags.text))
    out.push({
      check: 'platform',
      file: siteFile,
      message: "the function app must carry the tag 'azd-service-name': 'api' (azure.yaml service)",
    });

  // Role assignments of the function identity, in the function app's file.
  const assigned = roleAssignmentsIn(file).filter((a) => a.principal.includes(`${site.symbol}.identity.principalId`));
  const needed: [string, string][] = [
    ['Storage Blob Data Owner', ROLE_IDS.storageBlobDataOwner],
    ['Storage Queue Data Contributor', ROLE_IDS.storageQueueDataContributor],
    ['Storage Table Data Contributor', ROLE_IDS.storageTableDataContributor],
    ['Key Vault Secrets User', ROLE_IDS.keyVaultSecretsUser],
  ];
  for (const [label, id] of needed)
    if (!assigned.some((a) => a.roleId === id))
      out.push({ check: 'platform', file: siteFile, message: `the function identity lacks ${label} (${id})` });
  return out;
}

/** Role assignments of a file with their role definition id (resolved through `var roles = {...}`) and principal. */
function roleAssignmentsIn(file: BicepFile): { symbol: string; roleId: string | undefined; principal: string }[] {
  return file.resources
    .filter((r) => r.typeAndVersion.toLowerCase().startsWith('microsoft.authorization/roleassignments@'))
    .map((r) => {
      const roleExpr = getProperty(r.body, 'properties', 'roleDefinitionId');
      return {
        symbol: r.symbol,
        roleId: roleExpr ? resolveGuid(file, roleExpr) : undefined,
        principal: getProperty(r.body, 'properties', 'principalId')?.text ?? '',
      };
    });
}

const GUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

function resolveGuid(file: BicepFile, expr: Node): string | undefined {
  const literal = GUID.exec(expr.text);
  if (literal) return literal[0].toLowerCase();
  for (const m of [expr, ...expr.descendantsOfType('member_expression')]) {
    if (!m || m.type !== 'member_expression') continue;
    const [object, prop] = m.namedChildren;
    const table = object?.type === 'identifier' ? literalValue(file.vars.get(object.text)) : NOT_LITERAL;
    if (table && typeof table === 'object' && prop) {
      const value = (table as Record<string, unknown>)[prop.text];
      if (typeof value === 'string' && GUID.test(value)) return value.toLowerCase();
    }
  }
  for (const id of expr.descendantsOfType('identifier')) {
    const v = id ? literalValue(file.vars.get(id.text)) : NOT_LITERAL;
    if (typeof v === 'string' && GUID.test(v)) return v.toLowerCase();
  }
  return undefined;
}
