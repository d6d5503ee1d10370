/**
 * The offline checks must fail when infra/ is wrong. Each test copies infra/ (and local.settings.sample.json) to a
 * temporary directory, breaks one thing, and asserts the checks report it, by name.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runAllChecks } from './checks';
import { CheckContext, formatFinding, SettingSchema } from './checks/model';
import { AZURE_YAML_FILE, HOST_JSON_FILE, INFRA_DIR, realContext, SAMPLE_SETTINGS_FILE } from './context';

const roots: string[] = [];

/** A fresh copy of infra/ and the sample settings, and a context pointing at it. */
function copy(): { dir: string; ctx: CheckContext; edit: (file: string, from: string | RegExp, to: string) => void } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'siex-infra-'));
  roots.push(root);
  const dir = path.join(root, 'infra');
  fs.cpSync(INFRA_DIR, dir, { recursive: true });
  const sample = path.join(root, 'local.settings.sample.json');
  fs.copyFileSync(SAMPLE_SETTINGS_FILE, sample);
  const azureYaml = path.join(root, 'azure.yaml');
  fs.copyFileSync(AZURE_YAML_FILE, azureYaml);
  const hostJson = path.join(root, 'host.json');
  fs.copyFileSync(HOST_JSON_FILE, hostJson);
  const edit = (file: string, from: string | RegExp, to: string) => {
    const full = path.isAbsolute(file) ? file : path.join(dir, file);
    const text = fs.readFileSync(full, 'utf8');
    // The text to break must be there: a silent no-op would make the test prove nothing.
    expect(typeof from === 'string' ? text.includes(from) : from.test(text)).toBe(true);
    fs.writeFileSync(full, text.replace(from, to));
  };
  return {
    dir,
    ctx: realContext({ infraDir: dir, sampleSettingsFile: sample, azureYamlFile: azureYaml, hostJsonFile: hostJson }),
    edit,
  };
}

async function findings(ctx: CheckContext): Promise<string[]> {
  return (await runAllChecks(ctx)).map(formatFinding);
}

afterAll(() => {
  for (const r of roots) fs.rmSync(r, { recursive: true, force: true });
});

describe('the infra checks bite on a broken copy', () => {
  it('find nothing on an unbroken copy', async () => {
    expect(await findings(copy().ctx)).toEqual([]);
  });

  // Settings.

  it('report a misspelt app setting both ways: the schema name missing, the unknown name set', async () => {
    const c = copy();
    c.edit('main.bicep', "AUTH_MODE: 'apim'", "AUTH_MDOE: 'apim'");
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/setting 'AUTH_MODE' \(shared\/config\/settings\.ts\) is not set/);
    expect(out).toMatch(/app setting 'AUTH_MDOE' is not read by the code/);
  });

  it('report a setting the schema gains before the templates and the sample list it', async () => {
    const c = copy();
    const shape = {
      ...c.ctx.settings.shape,
      SIEX_NOT_YET_A_SETTING: { safeParse: () => ({ success: false }) } as SettingSchema,
    };
    const out = (await findings({ ...c.ctx, settings: { ...c.ctx.settings, shape } })).join('\n');
    expect(out).toMatch(
      /\[app-settings\] infra \(function app settings\): setting 'SIEX_NOT_YET_A_SETTING' .* is not set/,
    );
    expect(out).toMatch(
      /\[app-settings\] local\.settings\.sample\.json: setting 'SIEX_NOT_YET_A_SETTING' is not listed/,
    );
  });

  it('report an app setting value the schema rejects, and AUTH_MODE other than apim', async () => {
    const c = copy();
    c.edit('main.bicep', "MAX_BODY_BYTES: '1048576'", "MAX_BODY_BYTES: 'one megabyte'");
    c.edit('main.bicep', "AUTH_MODE: 'apim'", "AUTH_MODE: 'local'");
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/app setting 'MAX_BODY_BYTES' = "one megabyte" fails the schema/);
    expect(out).toMatch(/app setting 'MAX_BODY_BYTES' must be '1048576'/);
    expect(out).toMatch(/AUTH_MODE must be 'apim'/);
  });

  it('report a setting Flex Consumption rejects', async () => {
    const c = copy();
    c.edit(
      'modules/functionApp.bicep',
      "AzureWebJobsStorage__credential: 'managedidentity'",
      "AzureWebJobsStorage__credential: 'managedidentity'\n  FUNCTIONS_WORKER_RUNTIME: 'node'",
    );
    expect((await findings(c.ctx)).join('\n')).toMatch(
      /'FUNCTIONS_WORKER_RUNTIME' must not be set on Flex Consumption/,
    );
  });

  it('report a Node runtime other than 22 (Node 20 is out of support since April 2026)', async () => {
    const c = copy();
    c.edit('modules/functionApp.bicep', "version: '22'", "version: '20'");
    expect((await findings(c.ctx)).join('\n')).toMatch(
      /functionAppConfig\.runtime must be node 22, is \{"name":"node","version":"20"\}/,
    );
  });

  it('report a setting missing from local.settings.sample.json, or a sample that fails the schema', async () => {
    const c = copy();
    c.edit(c.ctx.sampleSettingsFile, /\s*"RATE_LIMIT_PER_MINUTE": "100",/, '');
    c.edit(c.ctx.sampleSettingsFile, '"AUTH_MODE": "local"', '"AUTH_MODE": "sometimes"');
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/local\.settings\.sample\.json: setting 'RATE_LIMIT_PER_MINUTE' is not listed in Values/);
    expect(out).toMatch(/local\.settings\.sample\.json: Values fail the schema at AUTH_MODE/);
  });

  it('report an allow-list entry that is no longer true', async () => {
    const c = copy();
    const allowlist = { ...c.ctx.allowlist, localOnly: { ...c.ctx.allowlist.localOnly, AUTH_MODE: 'wrongly local' } };
    const out = (await findings({ ...c.ctx, allowlist })).join('\n');
    expect(out).toMatch(/'AUTH_MODE' is local-only \(allow-list\) but the templates set it/);
  });

  // Modules, files, syntax, symbols.

  it('report a module path that does not exist', async () => {
    const c = copy();
    c.edit('main.bicep', "'modules/storage.bicep'", "'modules/storages.bicep'");
    expect((await findings(c.ctx)).join('\n')).toMatch(/module storage: 'modules\/storages\.bicep' does not exist/);
  });

  it('report a module parameter the module does not declare, and a required one not passed', async () => {
    const c = copy();
    c.edit(
      'main.bicep',
      'apiClientId: apiRegistration.outputs.clientId\n    applicationInsightsName',
      'backendClientId: apiRegistration.outputs.clientId\n    applicationInsightsName',
    );
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/module apim passes 'backendClientId', which modules\/apim\.bicep does not declare/);
    expect(out).toMatch(/module apim does not pass required parameter 'apiClientId'/);
  });

  it('report a module output that does not exist', async () => {
    const c = copy();
    c.edit('main.bicep', 'apim.outputs.gatewayUrl', 'apim.outputs.gatewayUri');
    expect((await findings(c.ctx)).join('\n')).toMatch(/apim\.outputs\.gatewayUri .*: no such output/);
  });

  it('report a loaded file that does not exist', async () => {
    const c = copy();
    fs.renameSync(path.join(c.dir, 'policies/api.xml'), path.join(c.dir, 'policies/api-policy.xml'));
    expect((await findings(c.ctx)).join('\n')).toMatch(
      /loadTextContent\('\.\.\/policies\/api\.xml'\) .*: no such file/,
    );
  });

  it('report a syntax error', async () => {
    const c = copy();
    c.edit('modules/storage.bicep', "  name: 'default'\n}\n\nresource queues", "  name: 'default'\n\nresource queues");
    expect((await findings(c.ctx)).join('\n')).toMatch(/\[syntax\] infra\/modules\/storage\.bicep: parse error/);
  });

  it('report an undeclared symbol', async () => {
    const c = copy();
    c.edit('modules/keyVault.bicep', 'tenantId: subscription().tenantId', 'tenantId: tenantIdentifier');
    expect((await findings(c.ctx)).join('\n')).toMatch(
      /\[symbols\] infra\/modules\/keyVault\.bicep: 'tenantIdentifier' .* is not declared/,
    );
  });

  it('report a resource API version nobody checked', async () => {
    const c = copy();
    c.edit(
      'modules/monitoring.bicep',
      'Microsoft.Insights/components@2020-02-02',
      'Microsoft.Insights/components@2015-05-01',
    );
    expect((await findings(c.ctx)).join('\n')).toMatch(
      /'Microsoft\.Insights\/components@2015-05-01' has not been checked against the official type definitions/,
    );
  });

  it('report a misspelt or read-only property, in a resource, a case of a discriminated type, or a variable', async () => {
    const c = copy();
    c.edit('modules/monitoring.bicep', 'DisableLocalAuth: true', 'disableLocalAuth: true');
    c.edit('modules/functionApp.bicep', 'httpsOnly: true', "httpsOnly: true\n    defaultHostName: 'x'");
    c.edit('modules/functionApp.bicep', 'requireAuthentication: true', 'requireAuth: true');
    c.edit(
      'modules/apim.bicep',
      '  dataMasking: keyMasking\n}\nvar responseLog',
      '  dataMask: keyMasking\n}\nvar responseLog',
    );
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(
      /appInsights: properties\.disableLocalAuth is not a writable property of Microsoft\.Insights\/components@2020-02-02/,
    );
    expect(out).toMatch(
      /site: properties\.defaultHostName is not a writable property of Microsoft\.Web\/sites@2025-03-01/,
    );
    expect(out).toMatch(/authentication: properties\.globalValidation\.requireAuth is not a writable property/);
    expect(out).toMatch(/appInsightsDiagnostic: properties\.frontend\.request\.dataMask is not a writable property/);
  });

  it('report a verified type whose schema nobody wrote', async () => {
    const c = copy();
    const types = { ...c.ctx.verifiedResourceTypes.azure, 'Microsoft.Web/sites@2024-11-01': 'generated/web/x' };
    const out = (
      await findings({ ...c.ctx, verifiedResourceTypes: { ...c.ctx.verifiedResourceTypes, azure: types } })
    ).join('\n');
    expect(out).toMatch(/no schema for Microsoft\.Web\/sites@2024-11-01: run write-resource-schemas\.js/);
  });

  it('report Graph resources without the extension, or an extension version whose types nobody checked', async () => {
    const c = copy();
    c.edit('modules/apiRegistration.bicep', 'extension microsoftGraphV1\n', '');
    c.edit('bicepconfig.json', 'microsoftgraph/v1.0:1.0.0', 'microsoftgraph/v1.0:0.1.8-preview');
    c.edit(
      'modules/apiRegistration.bicep',
      "'Microsoft.Graph/servicePrincipals@v1.0'",
      "'Microsoft.Graph/servicePrincipals@beta'",
    );
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(
      /resource application: 'Microsoft\.Graph\/applications@v1\.0' needs the Microsoft Graph extension/,
    );
    expect(out).toMatch(
      /'Microsoft\.Graph\/servicePrincipals@beta' is not a type of Graph extension br:mcr\.microsoft\.com\/bicep\/extensions\/microsoftgraph\/v1\.0:1\.0\.0/,
    );
    const withAlias = copy();
    withAlias.edit('bicepconfig.json', 'microsoftgraph/v1.0:1.0.0', 'microsoftgraph/v1.0:0.1.8-preview');
    expect((await findings(withAlias.ctx)).join('\n')).toMatch(
      /extension microsoftGraphV1 must be declared in infra\/bicepconfig\.json as 'br:mcr\.microsoft\.com\/bicep\/extensions\/microsoftgraph\/v1\.0:1\.0\.0'/,
    );
  });

  // Parameters and secrets.

  it('report a secret-looking parameter without @secure(), and a secret output', async () => {
    const c = copy();
    c.edit(
      'main.bicep',
      "param resourceGroupName string = ''",
      "param resourceGroupName string = ''\n\nparam siexClientPassword string = ''",
    );
    c.edit(
      'modules/storage.bicep',
      'output name string = account.name',
      'output name string = account.name\noutput accountKey string = account.listKeys().keys[0].value',
    );
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/parameter 'siexClientPassword' looks secret: mark it @secure\(\)/);
    expect(out).toMatch(/output 'accountKey' looks secret/);
    expect(out).toMatch(/output 'accountKey' calls account\.listKeys\(\)/);
  });

  it('report parameter files with an unknown parameter, a missing required one, or a disallowed value', async () => {
    const c = copy();
    c.edit(
      'main.dev.parameters.json',
      '"apimSku": { "value": "Consumption" }',
      '"apimTier": { "value": "Consumption" }',
    );
    c.edit('main.prod.parameters.json', /\s*"apimPublisherEmail": \{ "value": "[^"]+" \},/, '');
    c.edit('main.parameters.json', 'APIM_SKU=Consumption', 'APIM_SKU=Premium');
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/main\.dev\.parameters\.json: 'apimTier' is not a parameter of main\.bicep/);
    expect(out).toMatch(/main\.prod\.parameters\.json: required parameter 'apimPublisherEmail' is missing/);
    expect(out).toMatch(/main\.parameters\.json: 'apimSku' default 'Premium' is not one of/);
  });

  it('report production on a tier without an SLA or without zones, and development on a costly one', async () => {
    const c = copy();
    c.edit('main.prod.parameters.json', '"apimSku": { "value": "BasicV2" }', '"apimSku": { "value": "Consumption" }');
    c.edit('main.prod.parameters.json', '"zoneRedundant": { "value": true }', '"zoneRedundant": { "value": false }');
    c.edit('main.dev.parameters.json', '"apimSku": { "value": "Consumption" }', '"apimSku": { "value": "StandardV2" }');
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/main\.prod\.parameters\.json: apimSku must be BasicV2 or StandardV2, is "Consumption"/);
    expect(out).toMatch(/main\.prod\.parameters\.json: zoneRedundant must be true, is false/);
    expect(out).toMatch(/main\.dev\.parameters\.json: apimSku must be 'Consumption' \(development stays cheap\)/);
  });

  it('report the wrong product in an environment parameter file', async () => {
    const c = copy();
    c.edit('main.prod.parameters.json', '"value": "api-service-siex" }', '"value": "api-service-siex-dev" }');
    expect((await findings(c.ctx)).join('\n')).toMatch(
      /main\.prod\.parameters\.json: apiServiceSiexProduct must be 'api-service-siex'/,
    );
  });

  // Platform.

  it('report a function app that does not run as its own identity, in every place that names it', async () => {
    const c = copy();
    c.edit(
      'modules/functionApp.bicep',
      "type: 'UserAssigned'\n    userAssignedIdentities",
      "type: 'SystemAssigned, UserAssigned'\n    userAssignedIdentities",
    );
    c.edit('modules/functionApp.bicep', "type: 'UserAssignedIdentity'", "type: 'SystemAssignedIdentity'");
    c.edit(
      'modules/functionApp.bicep',
      'keyVaultReferenceIdentity: identityId',
      "keyVaultReferenceIdentity: 'SystemAssigned'",
    );
    c.edit('modules/functionApp.bicep', 'zoneRedundant: zoneRedundant\n', '');
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/the function app must run as the function identity of identities\.bicep, and only as it/);
    expect(out).toMatch(/the deployment package must be read with the function identity/);
    expect(out).toMatch(/keyVaultReferenceIdentity must be the function identity/);
    expect(out).toMatch(/plan plan: properties\.zoneRedundant must be set/);
  });

  // Roles.

  it('report a missing role, a role on the wrong kind of resource, and a grant nobody reviewed', async () => {
    const c = copy();
    c.edit(
      'modules/functionApp.bicep',
      "roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.tableDataContributor)",
      "roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.blobDataOwner)",
    );
    c.edit('modules/functionApp.bicep', 'scope: appInsights', 'scope: storage');
    c.edit(
      'modules/communication.bicep',
      'roleDefinitionId: senderRoleDefinitionId',
      "roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', '09976791-48a7-449e-bb21-39d1a415f350')",
    );
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(
      /the function identity lacks Storage Table Data Contributor on its Microsoft\.Storage\/storageAccounts/,
    );
    expect(out).toMatch(
      /telemetryPublisher: Monitoring Metrics Publisher for the function identity must be scoped to its Microsoft\.Insights\/components, is scoped to Microsoft\.Storage\/storageAccounts/,
    );
    expect(out).toMatch(
      /emailSender: the function identity gets role 09976791-48a7-449e-bb21-39d1a415f350, which is not in the reviewed list/,
    );
  });

  it('report a Key Vault role for API Management', async () => {
    const c = copy();
    c.edit(
      'modules/functionApp.bicep',
      'resource telemetryPublisher',
      "resource gatewaySecrets 'Microsoft.Authorization/roleAssignments@2022-04-01' = {\n  name: guid(vault.id, apimPrincipalId, roles.keyVaultSecretsUser)\n  scope: vault\n  properties: {\n    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.keyVaultSecretsUser)\n    principalId: apimPrincipalId\n    principalType: 'ServicePrincipal'\n  }\n}\n\nresource telemetryPublisher",
    );
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/gatewaySecrets: API Management must hold no Key Vault role/);
    expect(out).toMatch(
      /gatewaySecrets: the apim identity gets role 4633458b-17de-408a-b874-0445c86b69e6, which is not in the reviewed list/,
    );
  });

  it('report an e-mail role that can do more than send, or be assigned beyond its resource group', async () => {
    const c = copy();
    c.edit(
      'modules/emailSenderRole.bicep',
      "'Microsoft.Communication/EmailServices/write'",
      "'Microsoft.Communication/EmailServices/write'\n          'Microsoft.Communication/CommunicationServices/ListKeys/action'",
    );
    c.edit('modules/emailSenderRole.bicep', 'var roleScope = resourceGroup().id', 'var roleScope = subscription().id');
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(
      /custom role emailSenderRole: actions must be exactly Microsoft\.Communication\/CommunicationServices\/Read/,
    );
    expect(out).toMatch(/custom role emailSenderRole: assignableScopes must be this resource group only/);
  });

  // Local authentication.

  it('report local authentication left on: shared keys, ACS keys, instrumentation keys, access policies, publishing passwords', async () => {
    const c = copy();
    c.edit('modules/storage.bicep', 'allowSharedKeyAccess: false', 'allowSharedKeyAccess: true');
    c.edit('modules/communication.bicep', 'disableLocalAuth: true', 'disableLocalAuth: false');
    c.edit('modules/monitoring.bicep', 'DisableLocalAuth: true', 'DisableLocalAuth: false');
    c.edit('modules/keyVault.bicep', 'enableRbacAuthorization: true', 'enableRbacAuthorization: false');
    c.edit(
      'modules/functionApp.bicep',
      "name: 'ftp'\n  dependsOn: [\n    scmBasicAuth\n  ]\n  properties: {\n    allow: false",
      "name: 'ftp'\n  dependsOn: [\n    scmBasicAuth\n  ]\n  properties: {\n    allow: true",
    );
    c.edit(
      'modules/functionApp.bicep',
      "minTlsVersion: '1.2'\n      scm",
      "minTlsVersion: '1.0'\n      ftpsState: 'FtpsOnly'\n      scm",
    );
    c.edit('modules/functionApp.bicep', "'ClientId=${identityClientId};Authorization=AAD'", "''");
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/account: properties\.allowSharedKeyAccess must be false/);
    expect(out).toMatch(/communicationService: properties\.disableLocalAuth must be true/);
    expect(out).toMatch(/appInsights: properties\.DisableLocalAuth must be true/);
    expect(out).toMatch(/vault: properties\.enableRbacAuthorization must be true/);
    expect(out).toMatch(/basic publishing credentials for FTP must be off/);
    expect(out).toMatch(/site: properties\.siteConfig\.minTlsVersion must be "1\.2"/);
    expect(out).toMatch(/siteConfig\.ftpsState must not be set: Flex Consumption has no FTP or FTPS/);
    expect(out).toMatch(/hostAppSettings must set APPLICATIONINSIGHTS_AUTHENTICATION_STRING/);
  });

  // Diagnostics.

  it('report a resource without its diagnostic setting, one to another workspace, and a type nobody classified', async () => {
    const c = copy();
    c.edit(
      'modules/keyVault.bicep',
      'scope: vault\n  properties: {\n    workspaceId',
      'scope: operatorCertificates\n  properties: {\n    workspaceId',
    );
    c.edit(
      'modules/storage.bicep',
      'scope: queueService\n  properties: {\n    workspaceId: logAnalyticsWorkspaceId',
      "scope: queueService\n  properties: {\n    workspaceId: 'elsewhere'",
    );
    c.edit(
      'modules/storage.bicep',
      "scope: tableService\n  properties: {\n    workspaceId: logAnalyticsWorkspaceId\n    logs: [\n      {\n        categoryGroup: 'allLogs'\n        enabled: true",
      "scope: tableService\n  properties: {\n    workspaceId: logAnalyticsWorkspaceId\n    logs: [\n      {\n        categoryGroup: 'allLogs'\n        enabled: false",
    );
    c.edit(
      'modules/identities.bicep',
      'output functionIdentityId',
      "resource bus 'Microsoft.ServiceBus/namespaces@2022-10-01-preview' = {\n  name: 'x'\n  location: location\n}\n\noutput functionIdentityId",
    );
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/vault: Microsoft\.KeyVault\/vaults needs a diagnostic setting/);
    expect(out).toMatch(/queueDiagnostics: workspaceId must be the deployment's Log Analytics workspace/);
    expect(out).toMatch(/tableDiagnostics: logs must enable categoryGroup 'allLogs'/);
    expect(out).toMatch(/bus: Microsoft\.ServiceBus\/namespaces is in neither LOGGED_TYPES nor UNLOGGED_TYPES/);
  });

  it('report API Management logs that could carry a key, a body, or use an instrumentation key', async () => {
    const c = copy();
    c.edit(
      'modules/apim.bicep',
      "      value: 'Ocp-Apim-Sid-Key'\n      mode: 'Hide'",
      "      value: 'Ocp-Apim-Sid-Key'\n      mode: 'Show'",
    );
    c.edit('modules/apim.bicep', "    'Idempotency-Key'\n", "    'Idempotency-Key'\n    'Authorization'\n");
    c.edit(
      'modules/apim.bicep',
      '  body: {\n    bytes: 0\n  }\n  dataMasking: keyMasking\n}\nvar responseLog',
      '  body: {\n    bytes: 1024\n  }\n  dataMasking: keyMasking\n}\nvar responseLog',
    );
    c.edit(
      'modules/apim.bicep',
      'identityClientId: identityClientId\n    }',
      'instrumentationKey: appInsights.properties.InstrumentationKey\n    }',
    );
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/appInsightsDiagnostic: frontend\.request must mask the header Ocp-Apim-Sid-Key/);
    expect(out).toMatch(/appInsightsDiagnostic: backend\.request logs the header Authorization, which carries a key/);
    expect(out).toMatch(/appInsightsDiagnostic: frontend\.request must log no body/);
    expect(out).toMatch(/appInsightsLogger: must send with the managed identity/);
  });

  // The backend's authentication.

  it('report a function app that admits other callers, or a key read at deployment', async () => {
    const c = copy();
    c.edit(
      'modules/functionApp.bicep',
      "unauthenticatedClientAction: 'Return401'",
      "unauthenticatedClientAction: 'AllowAnonymous'\n      excludedPaths: [\n        '/api/v1/openapi.json'\n      ]",
    );
    c.edit('modules/functionApp.bicep', 'platform: {\n      enabled: true', 'platform: {\n      enabled: false');
    c.edit(
      'modules/functionApp.bicep',
      'allowedPrincipals: {\n              identities: [\n                apimPrincipalId',
      'allowedPrincipals: {\n              identities: [\n                identityPrincipalId',
    );
    c.edit(
      'modules/functionApp.bicep',
      'allowedApplications: [\n              apimClientId\n',
      'allowedApplications: [\n              apimClientId\n              identityClientId\n',
    );
    c.edit(
      'modules/functionApp.bicep',
      'output name string = site.name',
      "output name string = site.name\noutput hostKey string = listKeys('${site.id}/host/default', '2024-04-01').functionKeys.default",
    );
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/authentication: platform\.enabled must be true/);
    expect(out).toMatch(/authentication: globalValidation\.unauthenticatedClientAction must be "Return401"/);
    expect(out).toMatch(/authentication: no path may be excluded from authentication/);
    expect(out).toMatch(/allowedPrincipals\.identities must be API Management's identity only/);
    expect(out).toMatch(/allowedApplications must be API Management's identity only/);
    expect(out).toMatch(
      /\[backend-auth\] infra\/modules\/functionApp\.bicep: listKeys\(\) at \d+:\d+: no template reads keys/,
    );
  });

  it('report tokens checked against the wrong audience or issuer, a second identity provider, a named value from Key Vault', async () => {
    const c = copy();
    c.edit('modules/functionApp.bicep', "tenant().tenantId}/v2.0'", "tenant().tenantId}/'");
    c.edit(
      'modules/functionApp.bicep',
      'allowedAudiences: [\n            apiClientId',
      'allowedAudiences: [\n            apimClientId',
    );
    c.edit(
      'modules/functionApp.bicep',
      '    identityProviders: {\n',
      '    identityProviders: {\n      github: {\n        enabled: true\n      }\n',
    );
    c.edit(
      'modules/apim.bicep',
      'value: apiClientId\n    secret: false',
      "keyVault: {\n      secretIdentifier: 'https://v.vault.azure.net/secrets/x'\n    }\n    value: apiClientId\n    secret: false",
    );
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/registration\.openIdIssuer must be the tenant's v2\.0 issuer/);
    expect(out).toMatch(/validation\.allowedAudiences must be the gateway's application only/);
    expect(out).toMatch(/Entra ID must be the only identity provider, has github, azureActiveDirectory/);
    expect(out).toMatch(/named value 'backend-app-id' is not a secret and must not come from Key Vault/);
  });

  it('report a function app without App Service authentication, and API Management asking with another identity', async () => {
    const c = copy();
    c.edit('modules/functionApp.bicep', "name: 'authsettingsV2'", "name: 'authsettings'");
    c.edit(
      'main.bicep',
      'identityClientId: identities.outputs.apimClientId\n    identityPrincipalId: identities.outputs.apimPrincipalId\n    apiClientId',
      'identityClientId: identities.outputs.functionClientId\n    identityPrincipalId: identities.outputs.apimPrincipalId\n    apiClientId',
    );
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/site: needs App Service authentication/);
    expect(out).toMatch(/named value 'apim-identity-client-id' must hold API Management's identity/);
    const trust = copy();
    trust.edit(
      'main.bicep',
      'APIM_PRINCIPAL_ID: identities.outputs.apimPrincipalId',
      'APIM_PRINCIPAL_ID: identities.outputs.functionPrincipalId',
    );
    expect((await findings(trust.ctx)).join('\n')).toMatch(
      /app setting APIM_PRINCIPAL_ID must be API Management's identity/,
    );
  });

  // Policies.

  it('report a rate limit other than 100 calls per 60 seconds', async () => {
    const c = copy();
    c.edit('policies/api.xml', 'calls="100" renewal-period="60"', 'calls="1000" renewal-period="60"');
    expect((await findings(c.ctx)).join('\n')).toMatch(
      /rate-limit must be calls="100" renewal-period="60", is calls="1000"/,
    );
  });

  it('report a size limit other than 1048576 bytes', async () => {
    const c = copy();
    c.edit('policies/api.xml', '&gt; 1048576)', '&gt; 2097152)');
    expect((await findings(c.ctx)).join('\n')).toMatch(/the size check must compare with 1048576 bytes/);
  });

  it('report a missing Sid-Key check, a kept subscription key, a forgeable identity header, an undefined named value', async () => {
    const c = copy();
    c.edit('policies/api.xml', 'GetValueOrDefault("Ocp-Apim-Sid-Key", "")', 'GetValueOrDefault("Ocp-Apim-Sid", "")');
    c.edit('policies/api.xml', '<set-header name="Ocp-Apim-Subscription-Key" exists-action="delete" />', '');
    c.edit(
      'policies/api.xml',
      '<set-header name="X-Apim-Subscription-Id" exists-action="override">',
      '<set-header name="X-Apim-Subscription-Id" exists-action="skip">',
    );
    c.edit('policies/api.xml', 'resource="{{backend-app-id}}"', 'resource="{{backend-app}}"');
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/a missing Ocp-Apim-Sid-Key must be answered 401/);
    expect(out).toMatch(/Ocp-Apim-Subscription-Key must be removed before the backend/);
    expect(out).toMatch(/X-Apim-Subscription-Id must be set with exists-action="override"/);
    expect(out).toMatch(/named value \{\{backend-app\}\} is not defined/);
  });

  it('report a subscription key accepted in the query string', async () => {
    const c = copy();
    c.edit('policies/api.xml', /<choose>\s*<when condition='@\(context\.Request\.OriginalUrl[\s\S]*?<\/choose>/, '');
    expect((await findings(c.ctx)).join('\n')).toMatch(
      /a subscription-key query parameter must be answered 401 \(the key is accepted only in Ocp-Apim-Subscription-Key\)/,
    );
  });

  it("report a backend call without API Management's token, or with a function key again", async () => {
    const c = copy();
    c.edit(
      'policies/api.xml',
      '<authentication-managed-identity resource="{{backend-app-id}}" client-id="{{apim-identity-client-id}}" />',
      '<authentication-managed-identity resource="{{backend-app-id}}" ignore-error="true" />\n    <set-header name="x-functions-key" exists-action="override"><value>k</value></set-header>',
    );
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(
      /<authentication-managed-identity resource="\{\{backend-app-id\}\}" client-id=.* must set the backend's Authorization header/,
    );
    expect(out).toMatch(/x-functions-key must not be set/);
  });

  it('report an API policy that skips the service-scope policy, and a global policy that never forwards', async () => {
    const c = copy();
    c.edit('policies/api.xml', '<on-error>\n    <base />\n  </on-error>', '<on-error />');
    c.edit('policies/global.xml', '<forward-request timeout="30" />', '');
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/<on-error> must include <base \/>/);
    expect(out).toMatch(/must <forward-request>/);
  });

  it('report malformed policy XML', async () => {
    const c = copy();
    c.edit('policies/api.xml', '</inbound>', '</inbonud>');
    expect((await findings(c.ctx)).join('\n')).toMatch(/\[policies\] infra\/policies\/api\.xml: not well-formed XML/);
  });

  it("report a policy error body that is not the app's problem details", async () => {
    const c = copy();
    c.edit('policies/global.xml', '"code":"RATE_LIMITED"', '"code":"TOO_MANY"');
    c.edit('policies/global.xml', '"title":"Not Found","status":404', '"title":"Not Found","status":400');
    c.edit('policies/api.xml', '<value>application/problem+json</value>', '<value>application/json</value>');
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/error code TOO_MANY is not in shared\/domain\/errors\.ts/);
    expect(out).toMatch(/return-response 404: body status 400 differs/);
    expect(out).toMatch(/Content-Type must be application\/problem\+json/);
  });

  it('report a 429 without Retry-After', async () => {
    const c = copy();
    c.edit('policies/global.xml', /<set-header name="Retry-After"[\s\S]*?<\/set-header>/, '');
    expect((await findings(c.ctx)).join('\n')).toMatch(/the 429 answer must set Retry-After/);
  });

  it('report an API imported from somewhere else than infra/openapi.json, or without a subscription', async () => {
    const c = copy();
    c.edit('modules/apim.bicep', "loadJsonContent('../openapi.json')", "loadTextContent('../policies/api.xml')");
    c.edit(
      'modules/apim.bicep',
      "serviceUrl: 'https://${functionAppHostName}'\n    subscriptionRequired: true",
      "serviceUrl: 'https://${functionAppHostName}'\n    subscriptionRequired: false",
    );
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/the API's value must be the content of infra\/openapi\.json/);
    expect(out).toMatch(/the API must require a subscription/);
  });

  it('report an azure.yaml that would not deploy the function app', async () => {
    const c = copy();
    c.edit(c.ctx.azureYamlFile, 'host: function', 'host: appservice');
    c.edit(c.ctx.azureYamlFile, 'dist: dist/deploy', 'dist: dist');
    c.edit(c.ctx.azureYamlFile, 'write-openapi.js --check', 'write-openapi.js');
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/services\.api\.host must be 'function'/);
    expect(out).toMatch(/services\.api\.dist must be 'dist\/deploy', is "dist"/);
    expect(out).toMatch(/the preprovision hook must check infra\/openapi\.json/);
  });

  it('report an azure.yaml that is not YAML', async () => {
    const c = copy();
    c.edit(c.ctx.azureYamlFile, 'services:\n  api:', 'services:\n  api: [');
    expect((await findings(c.ctx)).join('\n')).toMatch(/\[azure-yaml\] azure\.yaml: not YAML/);
  });

  // Operations (issue 27).

  it('report production data left deletable: the lock off by default, missing or not CanNotDelete', async () => {
    const c = copy();
    c.edit(
      'main.bicep',
      "param lockResources bool = apiServiceSiexProduct == 'api-service-siex'",
      'param lockResources bool = false',
    );
    c.edit('modules/keyVault.bicep', "level: 'CanNotDelete'", "level: 'NotSpecified'");
    c.edit('main.bicep', '    lock: lockResources\n  }\n}\n\nmodule keyVault', '  }\n}\n\nmodule keyVault');
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/lockResources must default to on in production/);
    expect(out).toMatch(/module backup must get lock: lockResources/);
    expect(out).toMatch(/keyVault\.bicep: a CanNotDelete lock scoped to the resource that holds the SIEX certificate/);
  });

  it('report an alert rule that reaches nobody, or whose query is not an analysed file', async () => {
    const c = copy();
    c.edit(
      'modules/alerts.bicep',
      "query: loadTextContent('../monitoring/backend-time.kql')",
      "query: 'ApiManagementGatewayLogs | count'",
    );
    c.edit('modules/alerts.bicep', '          actionGroup.id\n', '');
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/rule backend-time: its query must be loadTextContent/);
    expect(out).toMatch(/logAlerts: its alerts must reach the action group/);
  });

  it('report a production that could run on Consumption or alert nobody', async () => {
    const c = copy();
    c.edit('main.bicep', /var checkedApimSku = [^\n]*\n[^\n]*\n[^\n]*\n/, 'var checkedApimSku = apimSku\n');
    c.edit('main.bicep', /var checkedAlertEmail = [^\n]*\n[^\n]*\n[^\n]*\n/, 'var checkedAlertEmail = alertEmail\n');
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/production must refuse apimSku 'Consumption' with fail\(\)/);
    expect(out).toMatch(/production must refuse an empty alertEmail with fail\(\)/);
  });

  // A deterministic provision (issue 27, item 6).

  it('report a child of the site written in parallel with the one before it', async () => {
    const c = copy();
    c.edit('modules/functionApp.bicep', / {2}dependsOn: \[\n {4}ftpBasicAuth\n {2}\]\n/, '');
    expect((await findings(c.ctx)).join('\n')).toMatch(
      /\[provision\] infra\/modules\/functionApp\.bicep: authentication writes site site too: it must dependsOn ftpBasicAuth/,
    );
  });

  it('report a custom role assigned in the deployment that defines it', async () => {
    const c = copy();
    const role = fs
      .readFileSync(path.join(c.dir, 'modules/emailSenderRole.bicep'), 'utf8')
      .replace(/\noutput [^\n]*\n?$/, '');
    c.edit(
      'modules/communication.bicep',
      'roleDefinitionId: senderRoleDefinitionId',
      "roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', emailSenderRole.name)",
    );
    fs.appendFileSync(path.join(c.dir, 'modules/communication.bicep'), role);
    expect((await findings(c.ctx)).join('\n')).toMatch(
      /\[provision\] infra\/modules\/communication\.bicep: emailSender assigns custom role emailSenderRole in the deployment that defines it/,
    );
  });

  it('report deployment hooks that do not wait for the roles or do not require a 401 from the host', async () => {
    const c = copy();
    c.edit(c.ctx.azureYamlFile, 'node dist/local/deploy-checks.js verify-backend; exit', 'exit');
    c.edit(c.ctx.azureYamlFile, / {2}predeploy:\n( {4}.*\n| {6}.*\n)+/, '');
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/the predeploy hook \(posix\) must run deploy-checks\.js wait-for-roles/);
    expect(out).toMatch(/the postdeploy hook \(windows\) must run deploy-checks\.js verify-backend/);
  });

  // Who and what reaches the data (issue 27, items 5 and 7).

  it('report a production data plane left public', async () => {
    const c = copy();
    c.edit(
      'main.bicep',
      "param vnetEnabled bool = apiServiceSiexProduct == 'api-service-siex'",
      'param vnetEnabled bool = false',
    );
    c.edit('modules/network.bicep', "group: 'vault'", "group: 'vaultcore'");
    c.edit(
      'modules/storage.bicep',
      "publicNetworkAccess: privateOnly ? 'Disabled' : 'Enabled'",
      "publicNetworkAccess: 'Enabled'",
    );
    c.edit('main.bicep', '    restrictNetwork: vnetEnabled\n', '');
    c.edit(
      'modules/network.bicep',
      "serviceName: 'Microsoft.App/environments'",
      "serviceName: 'Microsoft.Web/serverFarms'",
    );
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/vnetEnabled must default to on in production/);
    expect(out).toMatch(/a private endpoint for the vault service is missing/);
    expect(out).toMatch(/account: publicNetworkAccess must be 'Disabled' when privateOnly/);
    expect(out).toMatch(/module keyVault must get restrictNetwork: vnetEnabled/);
    expect(out).toMatch(/the app subnet must be delegated to Microsoft\.App\/environments/);
  });

  it('report host storage in the data account, and a blob role there', async () => {
    const c = copy();
    c.edit(
      'modules/functionApp.bicep',
      "value: '${hostStorage.properties.primaryEndpoints.blob}",
      "value: '${storage.properties.primaryEndpoints.blob}",
    );
    c.edit(
      'modules/storage.bicep',
      'tableDataContributor: ',
      "blobDataOwner: 'b7e6dc6d-f1e8-4753-8033-0f276bb0955b'\n  tableDataContributor: ",
    );
    c.edit(
      'modules/storage.bicep',
      "roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.tableDataContributor)",
      "roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.blobDataOwner)",
    );
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/the deployment package must be in the host account/);
    expect(out).toMatch(/operatorTables: no blob role on the data account/);
  });

  it('report standing data and secret roles for the deployer in production', async () => {
    const c = copy();
    c.edit(
      'main.bicep',
      "var standingOperatorId = isProduction ? '' : principalId",
      'var standingOperatorId = principalId',
    );
    expect((await findings(c.ctx)).join('\n')).toMatch(
      /no standing data or secret roles for the deployer in production/,
    );
  });

  it('report SIEX concurrency no parameter caps: no guard, or a host that takes a second batch', async () => {
    const c = copy();
    c.edit(
      'main.bicep',
      /var checkedExportBatchSize = [^\n]*\n[^\n]*\n[^\n]*\n/,
      'var checkedExportBatchSize = exportBatchSize\n',
    );
    c.edit(
      'modules/functionApp.bicep',
      "AzureFunctionsJobHost__extensions__queues__newBatchThreshold: '0'",
      "AzureFunctionsJobHost__extensions__queues__newBatchThreshold: '2'",
    );
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(
      /checkedExportBatchSize must fail\(\) when functionMaximumInstanceCount × exportBatchSize > siexMaxConcurrentCalls/,
    );
    expect(out).toMatch(/hostAppSettings must set the queue batchSize to exportBatchSize and newBatchThreshold to 0/);
  });

  // The data accounts (issue 37 item 2): evaluated with dataAccountCount 1, 2 and 8.

  it('report an extra data account without the lock of the first', async () => {
    const c = copy();
    c.edit('main.bicep', '      lock: lockResources\n', '      lock: i == 0 && lockResources\n');
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(
      /\[data-accounts\] infra\/main\.bicep: module storage: lock differs between the data accounts \(it names the loop's i\)/,
    );
    expect(out).toMatch(/module storage must get lock: lockResources/);
  });

  it('report a data account declared apart from the others', async () => {
    const c = copy();
    const copied = [
      "module storageCopy 'modules/storage.bicep' = {",
      "  name: 'storage-copy'",
      '  scope: rg',
      '  params: {',
      "    name: 'st${resourceToken}9'",
      '    location: location',
      '    tags: tags',
      '    queueNames: []',
      '    logAnalyticsWorkspaceId: monitoring.outputs.logAnalyticsWorkspaceId',
      '  }',
      '}',
      '',
      "module hostStorage 'modules/hostStorage.bicep'",
    ].join('\n');
    c.edit('main.bicep', "module hostStorage 'modules/hostStorage.bicep'", copied);
    expect((await findings(c.ctx)).join('\n')).toMatch(
      /\[data-accounts\] infra\/main\.bicep: 2 module declarations deploy infra\/modules\/storage\.bicep/,
    );
  });

  it('report data accounts past the first without a private endpoint, the app table role or a place in STORAGE_ACCOUNTS', async () => {
    const c = copy();
    const all = '[for i in range(0, dataAccountCount): storage[i].outputs.name]';
    const first = '[for i in range(0, 1): storage[i].outputs.name]';
    c.edit('main.bicep', `dataAccountNames: ${all}`, `dataAccountNames: ${first}`);
    c.edit('main.bicep', `tableAccountNames: ${all}`, `tableAccountNames: ${first}`);
    c.edit('main.bicep', "STORAGE_ACCOUNTS: join(dataTableEndpoints, ',')", 'STORAGE_ACCOUNTS: dataTableEndpoints[0]');
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(
      /network\.bicep: data account stabcdefghij1232 has no private endpoint for its tables with dataAccountCount 2/,
    );
    expect(out).toMatch(
      /functionApp\.bicep: data account stabcdefghij1238: the app's identity lacks Storage Table Data Contributor with dataAccountCount 8, so neither the app nor its nightly backup reaches it/,
    );
    expect(out).toMatch(
      /app setting STORAGE_ACCOUNTS must be https:\/\/stabcdefghij123\.table\.core\.windows\.net,https:\/\/stabcdefghij1232\.table\.core\.windows\.net with dataAccountCount 2, is "https:\/\/stabcdefghij123\.table\.core\.windows\.net"/,
    );
    expect(out).not.toMatch(/with dataAccountCount 1\b/);
  });

  it('refuse data accounts it cannot evaluate, rather than pass them', async () => {
    const c = copy();
    c.edit(
      'main.bicep',
      "i == 0 ? 'st${resourceToken}' : 'st${resourceToken}${i + 1}'",
      "'st${resourceToken}${i % 2}'",
    );
    expect((await findings(c.ctx)).join('\n')).toMatch(
      /the data accounts cannot be evaluated offline with dataAccountCount 1: unknown operator %/,
    );
  });

  it('report data account names that collide, a first account renamed, and queues on every account', async () => {
    const names = copy();
    names.edit(
      'main.bicep',
      "i == 0 ? 'st${resourceToken}' : 'st${resourceToken}${i + 1}'",
      "'st${resourceToken}${i}'",
    );
    names.edit('main.bicep', 'queueNames: i == 0 ? queueNames : []', 'queueNames: queueNames');
    const renamed = (await findings(names.ctx)).join('\n');
    expect(renamed).toMatch(
      /the first data account must keep the name it always had, st\$\{resourceToken\}, is stabcdefghij1230/,
    );
    expect(renamed).toMatch(
      /data account stabcdefghij1231 gets queues \["export-jobs","export-jobs-poison"\] with dataAccountCount 2/,
    );
    const twice = copy();
    twice.edit('main.bicep', "'st${resourceToken}${i + 1}'", "'st${resourceToken}2'");
    expect((await findings(twice.ctx)).join('\n')).toMatch(
      /data account name stabcdefghij1232 is used twice with dataAccountCount 8/,
    );
  });

  it('report a data account count without bounds or that does not start at one account', async () => {
    const c = copy();
    c.edit('main.bicep', '@maxValue(8)\nparam dataAccountCount int = 1', 'param dataAccountCount int = 2');
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/dataAccountCount must be an int with @minValue\(1\) and a @maxValue/);
    expect(out).toMatch(/dataAccountCount must default to 1: an existing deployment keeps its one account/);
  });

  it('report a data account count azd does not keep, or production does not write down', async () => {
    const c = copy();
    c.edit('main.parameters.json', '"${DATA_ACCOUNT_COUNT}"', '"2"');
    c.edit('main.bicep', 'output DATA_ACCOUNT_COUNT int = dataAccountCount\n', '');
    c.edit('main.prod.parameters.json', ',\n    "dataAccountCount": { "value": 1 }', '');
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/main\.parameters\.json: dataAccountCount must come from azd's DATA_ACCOUNT_COUNT/);
    expect(out).toMatch(/output DATA_ACCOUNT_COUNT must be dataAccountCount: azd keeps it/);
    expect(out).toMatch(/main\.prod\.parameters\.json: dataAccountCount must be written/);
  });

  it('report a setting set ahead of its code once the code reads it, or no longer set', async () => {
    const c = copy();
    const awaitingCode = { AUTH_MODE: 'read by the code already', SIEX_NOT_SET_ANYWHERE: 'set by nothing' };
    const out = (await findings({ ...c.ctx, allowlist: { ...c.ctx.allowlist, awaitingCode } })).join('\n');
    expect(out).toMatch(/awaitingCode 'AUTH_MODE' is in the schema now: remove it from the list/);
    expect(out).toMatch(/'SIEX_NOT_SET_ANYWHERE' is awaiting its code \(allow-list\) but the templates do not set it/);
  });
});

describe('the issue-36 checks bite on what the review found (each break puts back what the templates had)', () => {
  it('H1: an immutability policy sent Unlocked at every provision, production parameters without Locked, no WORM alerts', async () => {
    const c = copy();
    c.edit('modules/backup.bicep', 'state: immutability', "state: 'Unlocked'");
    c.edit('main.prod.parameters.json', ',\n    "backupImmutability": { "value": "Locked" }', '');
    c.edit('main.parameters.json', '"${BACKUP_IMMUTABILITY=}"', '"Unlocked"');
    c.edit(
      'modules/alerts.bicep',
      "equals: 'Microsoft.Authorization/locks/delete'",
      "equals: 'Microsoft.Authorization/locks/write'",
    );
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(
      /\[backups\] infra\/modules\/backup\.bicep: the immutability policy's state must be a parameter/,
    );
    expect(out).toMatch(/\[backups\] infra\/main\.prod\.parameters\.json: backupImmutability must be 'Locked'/);
    expect(out).toMatch(/backupImmutability must come from azd's BACKUP_IMMUTABILITY/);
    expect(out).toMatch(/an activity-log alert on a deleted lock is missing/);
    const guard = copy();
    guard.edit(
      'main.bicep',
      /var checkedBackupImmutability = [^\n]*\n[^\n]*\n[^\n]*\n/,
      'var checkedBackupImmutability = backupImmutabilityState\n',
    );
    expect((await findings(guard.ctx)).join('\n')).toMatch(/fails production on 'Disabled'/);
  });

  it('H2: azd not mapping the private network, no proof the Key Vault references resolve', async () => {
    const c = copy();
    c.edit('main.parameters.json', /\s*"vnetEnabled": \{ "value": "\$\{VNET_ENABLED\}" \},/, '');
    c.edit('main.parameters.json', /\s*"operatorIpRanges": \{ "value": "\$\{OPERATOR_IP_RANGES=\}" \},/, '');
    c.edit(c.ctx.azureYamlFile, 'node dist/local/deploy-checks.js verify-key-vault-references && node', 'node');
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/\[go-live\] infra\/main\.parameters\.json: vnetEnabled must come from azd's VNET_ENABLED/);
    expect(out).toMatch(/operatorIpRanges must come from azd's OPERATOR_IP_RANGES/);
    expect(out).toMatch(/the postdeploy hook \(posix\) must run deploy-checks\.js verify-key-vault-references/);
  });

  it('M2: backups locally redundant, public with the data plane, never aged', async () => {
    const c = copy();
    c.edit(
      'main.bicep',
      "isProduction ? (zoneRedundant ? 'Standard_GZRS' : 'Standard_GRS') : 'Standard_LRS'",
      "zoneRedundant ? 'Standard_ZRS' : 'Standard_LRS'",
    );
    c.edit(
      'main.bicep',
      '    privateOnly: vnetEnabled\n    lock: lockResources\n  }\n}\n\nmodule keyVault',
      '    lock: lockResources\n  }\n}\n\nmodule keyVault',
    );
    c.edit('modules/backup.bicep', "name: 'age-table-backups'", "name: 'keep-table-backups'");
    c.edit(
      'modules/backup.bicep',
      /\s*delete: \{\s*daysAfterCreationGreaterThan: lifecycle\.deleteAfterDays\s*\}/g,
      '',
    );
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/module backup's skuName must be geo-redundant in production/);
    expect(out).toMatch(/module backup must get privateOnly: vnetEnabled/);
    expect(out).toMatch(/lifecycle rules \(managementPolicies\) must move old backups/);
  });

  it('M3: development backups immutable, so azd down cannot delete them', async () => {
    const c = copy();
    c.edit(
      'main.dev.parameters.json',
      '"backupImmutability": { "value": "Disabled" }',
      '"backupImmutability": { "value": "Unlocked" }',
    );
    c.edit('modules/backup.bicep', /\? \{\s*enabled: false\s*\}/, '? {\n          enabled: true\n        }');
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/main\.dev\.parameters\.json: backupImmutability must be 'Disabled'/);
    expect(out).toMatch(/immutableStorageWithVersioning must be \{ enabled: false \} when the state is Disabled/);
  });

  it('M6: no alert on storage throttling, queue depth or Service Health, and queue metrics not exported', async () => {
    const c = copy();
    fs.writeFileSync(path.join(c.dir, 'monitoring/storage-throttling.kql'), 'AppRequests | take 1\n');
    c.edit('modules/alerts.bicep', "name: 'queue-depth'", "name: 'queue-size'");
    c.edit('modules/alerts.bicep', "equals: 'ServiceHealth'", "equals: 'Administrative'");
    c.edit(
      'modules/storage.bicep',
      '    metrics: serviceMetrics\n  }\n}\n\nresource tableDiagnostics',
      '  }\n}\n\nresource tableDiagnostics',
    );
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/an alert on storage throttling \(rule storage-throttling\) is missing/);
    expect(out).toMatch(/an alert on queue depth \(rule queue-depth\) is missing/);
    expect(out).toMatch(/an activity-log alert on Service Health/);
    expect(out).toMatch(/the queue service's diagnostic setting must send its Capacity metrics/);
  });

  it('M6: a poison alert that counts the export queue alone, and a queue of the app the template does not declare', async () => {
    const c = copy();
    // The alert's query as it was before webhook deliveries had a poison queue of their own.
    fs.writeFileSync(
      path.join(c.dir, 'monitoring/poison-messages.kql'),
      "AppRequests\n| where Name == 'exportPoison'\n| project TimeGenerated, OperationId, Success\n",
    );
    c.edit('main.bicep', "  'webhook-deliveries-poison'\n", '');
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/an alert on poison messages \(export and webhook\) \(rule poison-messages\) is missing/);
    expect(out).toMatch(/queue 'webhook-deliveries-poison' is not in the literal 'queueNames'/);
  });

  it('M7: traces and exceptions sampled', async () => {
    const c = copy();
    c.edit(c.ctx.hostJsonFile, '"excludedTypes": "Request;Exception;Trace"', '"excludedTypes": "Request"');
    expect((await findings(c.ctx)).join('\n')).toMatch(
      /\[monitoring\] host\.json: .*excludedTypes must exclude Exception, Trace from sampling/,
    );
  });

  it('M8: a log rule without skipQueryValidation', async () => {
    const c = copy();
    c.edit('modules/alerts.bicep', 'skipQueryValidation: true', 'skipQueryValidation: false');
    expect((await findings(c.ctx)).join('\n')).toMatch(/logAlerts: properties\.skipQueryValidation must be true/);
  });

  it('thresholds: two failed jobs before an alert, or one per error line', async () => {
    const c = copy();
    c.edit('modules/alerts.bicep', 'param failedJobsThreshold int = 0', 'param failedJobsThreshold int = 2');
    c.edit('modules/alerts.bicep', 'param functionErrorsThreshold int = 4', 'param functionErrorsThreshold int = 0');
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/rule export-failed must fire on one failed job/);
    expect(out).toMatch(/rule function-errors must not fire on every error line/);
  });

  it('L1: the availability test on a static document, with a key of the whole API and a SID key', async () => {
    const c = copy();
    c.edit(
      'modules/alerts.bicep',
      "RequestUrl: '${apim.properties.gatewayUrl}${healthPath}'",
      "RequestUrl: '${apim.properties.gatewayUrl}/v1/openapi.json'",
    );
    c.edit(
      'modules/alerts.bicep',
      '          value: monitoringSubscription.listSecrets().primaryKey\n        }',
      "          value: monitoringSubscription.listSecrets().primaryKey\n        }\n        {\n          key: 'Ocp-Apim-Sid-Key'\n          value: 'availability-test'\n        }",
    );
    c.edit('modules/apim.bicep', "scope: '/products/${monitorProduct.name}'", "scope: '/apis/${api.name}'");
    c.edit('modules/apim.bicep', '    primaryKey: monitorKey\n', '');
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/the availability test must call GET \/v1\/health/);
    expect(out).toMatch(/the availability test sends no SID key/);
    expect(out).toMatch(/the availability test's subscription must be scoped to the product 'availability-monitor'/);
    expect(out).toMatch(/primaryKey must be a @secure\(\) parameter that main\.bicep fills with newGuid\(\)/);
  });

  it('the rest: API Management unlocked, no NSG or NAT, no budget, any identity may get a backend token', async () => {
    const c = copy();
    c.edit(
      'main.bicep',
      '    monitorKey: availabilityKey\n    lock: lockResources\n',
      '    monitorKey: availabilityKey\n',
    );
    c.edit('modules/network.bicep', '          natGateway: {\n            id: egress.id\n          }\n', '');
    c.edit(
      'modules/network.bicep',
      '          networkSecurityGroup: {\n            id: endpointRules.id\n          }\n',
      '',
    );
    c.edit('modules/alerts.bicep', 'resource budget', 'resource spending');
    c.edit('modules/alerts.bicep', /\s*contactGroups: \[\s*actionGroup\.id\s*\]/g, '');
    c.edit('modules/alerts.bicep', /\s*contactEmails: [^\n]*/g, '');
    c.edit('modules/apiRegistration.bicep', 'appRoleAssignmentRequired: true', 'appRoleAssignmentRequired: false');
    c.edit(
      'modules/network.bicep',
      "blob: 'privatelink.blob.${environment().suffixes.storage}'",
      "blob: 'privatelink.blob.core.windows.net'",
    );
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/module apim must get lock: lockResources/);
    expect(out).toMatch(/subnet endpointSubnetName needs a network security group/);
    expect(out).toMatch(/the app's subnet must leave through a NAT gateway/);
    expect(out).toMatch(/a monthly budget .* is missing/);
    expect(out).toMatch(/appRoleAssignmentRequired must be true/);
    expect(out).toMatch(/'core\.windows\.net' at offset \d+/);
  });

  // The sandbox profile (issue 38 item 11).

  it('report a sandbox production would accept, a contradiction it would build, or a profile azd cannot set', async () => {
    const c = copy();
    c.edit('main.bicep', 'isSandbox && isProduction\n  ?', 'isSandbox && false\n  ?');
    c.edit('main.bicep', ' || lockResources', '');
    c.edit('main.bicep', " || backupImmutabilityState != 'Disabled'", '');
    c.edit('main.bicep', '  profile: checkedProfile\n', '');
    c.edit('main.parameters.json', '${SIEX_GATEWAY_PROFILE=standard}', 'sandbox');
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/checkedProfile must fail production on the sandbox profile first/);
    expect(out).toMatch(/must fail the sandbox profile with locks/);
    expect(out).toMatch(/must fail the sandbox profile with WORM backups/);
    expect(out).toMatch(/var tags must carry profile: checkedProfile/);
    expect(out).toMatch(/profile must come from azd's SIEX_GATEWAY_PROFILE/);
  });

  it('report a simulator of two instances, deployed outside the sandbox, or a gateway not pointed at it', async () => {
    const c = copy();
    c.edit('modules/siexSimulator.bicep', 'maximumInstanceCount: 1\n', 'maximumInstanceCount: 2\n');
    c.edit(
      'main.bicep',
      "module siexSimulator 'modules/siexSimulator.bicep' = if (isSandbox) {",
      "module siexSimulator 'modules/siexSimulator.bicep' = {",
    );
    c.edit(
      'main.bicep',
      "SIEX_BASE_URL: isSandbox ? 'https://${siexSimulator.outputs.defaultHostName}' : siexBaseUrl",
      'SIEX_BASE_URL: siexBaseUrl',
    );
    c.edit('main.bicep', "SIEX_CLIENT_CERT: isSandbox ? '' : ", 'SIEX_CLIENT_CERT: ');
    c.edit('modules/siexSimulator.bicep', 'SecretName=siex-password)', 'SecretName=simulator-password)');
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/maximumInstanceCount must be the literal 1/);
    expect(out).toMatch(/module siexSimulator must be deployed if \(isSandbox\) only/);
    expect(out).toMatch(/SIEX_BASE_URL must be the simulator's address in the sandbox/);
    expect(out).toMatch(/SIEX_CLIENT_CERT must be empty in the sandbox/);
    expect(out).toMatch(/SIMULATOR_PASSWORD must be the vault's siex-password/);
  });

  it("report the simulator running as the gateway's identity, or granted the gateway's roles", async () => {
    const c = copy();
    c.edit(
      'main.bicep',
      'identityId: identities.outputs.simulatorIdentityId',
      'identityId: identities.outputs.functionIdentityId',
    );
    c.edit(
      'modules/siexSimulator.bicep',
      "keyVaultSecretsUser: '4633458b-17de-408a-b874-0445c86b69e6'",
      "keyVaultSecretsUser: 'b86a8fe4-44ce-4948-aee5-eccb2c155cd7'",
    );
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(
      /the simulator must run, read its package and resolve its Key Vault reference as the simulator's identity/,
    );
    expect(out).toMatch(/secretsUser: the simulator identity gets role b86a8fe4/);
  });

  it('report azd hooks that would leave a sandbox without its data, its SIEX or its smoke run', async () => {
    const c = copy();
    c.edit(c.ctx.azureYamlFile, '        node dist/local/sandbox-setup.js provision || exit 1\n', '');
    c.edit(c.ctx.azureYamlFile, ' && node dist/local/sandbox-setup.js deploy &&', ' &&');
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/the postprovision hook \(posix\) must run sandbox-setup\.js provision/);
    expect(out).toMatch(/the postdeploy hook \(posix\) must run sandbox-setup\.js deploy/);
    expect(out).not.toMatch(/\(windows\) must run sandbox-setup/);
  });
});
