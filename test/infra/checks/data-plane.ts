/**
 * Who and what can reach the data (issue 27, items 5 and 7):
 * - production's private data plane (`vnetEnabled`, on in production): the app integrated with a subnet delegated to
 *   Microsoft.App/environments, private endpoints with their privatelink DNS zones for the table, queue and blob
 *   services and for Key Vault, public access off on the data and host accounts, Key Vault closed by default;
 * - the Functions host's storage apart from the data: the deployment package and the host's blobs in the host account,
 *   and no blob role for the app on the data account;
 * - no standing data or secret roles for the deployer in production.
 */
import { BicepFile, getProperty } from '../bicep';
import { Finding, Infra, moduleTarget, rel, roleAssignments } from './model';

const ON_IN_PRODUCTION = "apiServiceSiexProduct == 'api-service-siex'";
const PRIVATE_GROUPS = ['table', 'queue', 'blob', 'vault'];
const BLOB_ROLES = [
  'b7e6dc6d-f1e8-4753-8033-0f276bb0955b',
  'ba92f5b4-2d11-453d-a403-e96b0029c9fe',
  '2a2b9908-6ea1-4ae2-8e65-a410df84e7d1',
];

export function checkDataPlane(infra: Infra): Finding[] {
  const main = infra.main;
  if (!main) return [];
  return [...checkPrivateNetwork(infra, main), ...checkHostStorage(infra, main), ...checkDeployerRoles(main)];
}

function finding(file: string, message: string): Finding {
  return { check: 'data-plane', file, message };
}

const moduleParam = (main: BicepFile, symbol: string, param: string) =>
  getProperty(main.modules.find((m) => m.symbol === symbol)?.body, 'params', param)?.text;

function target(infra: Infra, main: BicepFile, symbol: string): BicepFile | undefined {
  const module = main.modules.find((m) => m.symbol === symbol);
  return module && moduleTarget(infra, main, module.source);
}

function checkPrivateNetwork(infra: Infra, main: BicepFile): Finding[] {
  const out: Finding[] = [];
  const at = 'infra/main.bicep';
  if (main.params.get('vnetEnabled')?.defaultValue?.text !== ON_IN_PRODUCTION)
    out.push(finding(at, `vnetEnabled must default to on in production (${ON_IN_PRODUCTION})`));
  const network = main.modules.find((m) => m.symbol === 'network');
  if (!network || !/^if \(vnetEnabled\)/.test(network.node.namedChildren.at(-1)?.text ?? ''))
    out.push(finding(at, 'module network (modules/network.bicep) must be deployed if (vnetEnabled)'));
  const networkFile = target(infra, main, 'network');
  if (networkFile) out.push(...checkNetworkModule(infra, networkFile));
  if (moduleParam(main, 'functionApp', 'virtualNetworkSubnetId') !== "vnetEnabled ? network.outputs.appSubnetId : ''")
    out.push(
      finding(at, "module functionApp must get virtualNetworkSubnetId: vnetEnabled ? network.outputs.appSubnetId : ''"),
    );
  const functionFile = target(infra, main, 'functionApp');
  const site = functionFile?.resources.find((r) => !r.existing && r.typeAndVersion.startsWith('Microsoft.Web/sites@'));
  if (
    functionFile &&
    !getProperty(site?.body, 'properties', 'virtualNetworkSubnetId')?.text.includes('virtualNetworkSubnetId')
  )
    out.push(
      finding(rel(infra, functionFile.file), 'the site must set properties.virtualNetworkSubnetId from its parameter'),
    );
  for (const [symbol, param] of [
    ['storage', 'privateOnly'],
    ['hostStorage', 'privateOnly'],
    ['keyVault', 'restrictNetwork'],
  ] as const) {
    if (moduleParam(main, symbol, param) !== 'vnetEnabled')
      out.push(finding(at, `module ${symbol} must get ${param}: vnetEnabled`));
    const file = target(infra, main, symbol);
    const account = file?.resources.find(
      (r) => !r.existing && /^Microsoft\.(Storage\/storageAccounts|KeyVault\/vaults)@/.test(r.typeAndVersion),
    );
    const acl = getProperty(account?.body, 'properties', 'networkAcls', 'defaultAction')?.text;
    if (file && acl !== `${param} ? 'Deny' : 'Allow'`)
      out.push(
        finding(
          rel(infra, file.file),
          `${account?.symbol ?? symbol}: networkAcls.defaultAction must be ${param} ? 'Deny' : 'Allow'`,
        ),
      );
    const publicAccess = getProperty(account?.body, 'properties', 'publicNetworkAccess')?.text ?? '';
    if (file && !new RegExp(`^${param}( && [^?]+)? \\? 'Disabled' : 'Enabled'$`).test(publicAccess))
      out.push(
        finding(
          rel(infra, file.file),
          `${account?.symbol ?? symbol}: publicNetworkAccess must be 'Disabled' when ${param}`,
        ),
      );
  }
  return out;
}

function checkNetworkModule(infra: Infra, file: BicepFile): Finding[] {
  const out: Finding[] = [];
  const at = rel(infra, file.file);
  // The endpoints variable, and the variables it is built from (every data account's table endpoint: tableEndpoints).
  const endpoints = file.vars.get('endpoints');
  const parts = (endpoints?.descendantsOfType('identifier') ?? []).map((id) => id && file.vars.get(id.text));
  const groups = [endpoints, ...parts]
    .flatMap((v) => v?.descendantsOfType('object_property') ?? [])
    .map((p) => p?.text.match(/^group: '(\w+)'$/)?.[1])
    .filter((g): g is string => !!g);
  for (const group of PRIVATE_GROUPS)
    if (!groups.includes(group))
      out.push(finding(at, `a private endpoint for the ${group} service is missing (var endpoints)`));
  const byType = (type: string) => file.resources.filter((r) => r.typeAndVersion.startsWith(`${type}@`));
  for (const type of [
    'Microsoft.Network/privateEndpoints',
    'Microsoft.Network/privateEndpoints/privateDnsZoneGroups',
    'Microsoft.Network/privateDnsZones',
    'Microsoft.Network/privateDnsZones/virtualNetworkLinks',
  ])
    if (byType(type).length === 0) out.push(finding(at, `${type} is missing`));
  const [vnet] = byType('Microsoft.Network/virtualNetworks');
  if (!/serviceName: 'Microsoft\.App\/environments'/.test(getProperty(vnet?.body, 'properties', 'subnets')?.text ?? ''))
    out.push(finding(at, 'the app subnet must be delegated to Microsoft.App/environments (Flex Consumption)'));
  return out;
}

function checkHostStorage(infra: Infra, main: BicepFile): Finding[] {
  const out: Finding[] = [];
  const at = 'infra/main.bicep';
  if (moduleParam(main, 'functionApp', 'hostStorageAccountName') !== 'hostStorage.outputs.name')
    out.push(
      finding(
        at,
        'module functionApp must get hostStorageAccountName: hostStorage.outputs.name (the host account, not the data account)',
      ),
    );
  const functionFile = target(infra, main, 'functionApp');
  if (functionFile) {
    const file = rel(infra, functionFile.file);
    const site = functionFile.resources.find((r) => !r.existing && r.typeAndVersion.startsWith('Microsoft.Web/sites@'));
    const packageAt =
      getProperty(site?.body, 'properties', 'functionAppConfig', 'deployment', 'storage', 'value')?.text ?? '';
    if (!packageAt.includes('hostStorage.'))
      out.push(finding(file, 'the deployment package must be in the host account (hostStorage), not the data account'));
    if (
      !getProperty(functionFile.vars.get('hostAppSettings'), 'AzureWebJobsStorage__blobServiceUri')?.text.includes(
        'hostStorage.',
      )
    )
      out.push(
        finding(
          file,
          "hostAppSettings must set AzureWebJobsStorage__blobServiceUri to the host account's blob endpoint",
        ),
      );
  }
  const dataFile = target(infra, main, 'storage');
  for (const a of roleAssignments(infra))
    if (a.file === dataFile && a.roleId && BLOB_ROLES.includes(a.roleId))
      out.push(
        finding(
          rel(infra, a.file.file),
          `${a.symbol}: no blob role on the data account (the host's blobs are in the host account)`,
        ),
      );
  if (
    dataFile?.resources.some((r) =>
      r.typeAndVersion.startsWith('Microsoft.Storage/storageAccounts/blobServices/containers@'),
    )
  )
    out.push(finding(rel(infra, dataFile.file), 'the data account holds no blob container: the host account does'));
  return out;
}

function checkDeployerRoles(main: BicepFile): Finding[] {
  if (main.vars.get('standingOperatorId')?.text === "isProduction ? '' : principalId") return [];
  return [
    finding(
      'infra/main.bicep',
      "var standingOperatorId must be isProduction ? '' : principalId: no standing data or secret roles for the deployer in production",
    ),
  ];
}
