/**
 * The offline checks must fail when infra/ is wrong. Each test copies infra/ (and local.settings.sample.json) to a
 * temporary directory, breaks one thing, and asserts the checks report it, by name.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runAllChecks } from './checks';
import { CheckContext, formatFinding, SettingSchema } from './checks/model';
import { AZURE_YAML_FILE, INFRA_DIR, realContext, SAMPLE_SETTINGS_FILE } from './context';

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
  const edit = (file: string, from: string | RegExp, to: string) => {
    const full = path.isAbsolute(file) ? file : path.join(dir, file);
    const text = fs.readFileSync(full, 'utf8');
    // The text to break must be there: a silent no-op would make the test prove nothing.
    expect(typeof from === 'string' ? text.includes(from) : from.test(text)).toBe(true);
    fs.writeFileSync(full, text.replace(from, to));
  };
  return { dir, ctx: realContext({ infraDir: dir, sampleSettingsFile: sample, azureYamlFile: azureYaml }), edit };
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
      'keyVaultName: keyVault.outputs.name\n    functionKeySecretUri',
      'vaultName: keyVault.outputs.name\n    functionKeySecretUri',
    );
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/module apim passes 'vaultName', which modules\/apim\.bicep does not declare/);
    expect(out).toMatch(/module apim does not pass required parameter 'keyVaultName'/);
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
    c.edit(
      'modules/storage.bicep',
      "  name: 'default'\n}\n\nresource deploymentContainer",
      "  name: 'default'\n\nresource deploymentContainer",
    );
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
      /'Microsoft\.Insights\/components@2015-05-01' has not been checked/,
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

  it('report the wrong product in an environment parameter file', async () => {
    const c = copy();
    c.edit('main.prod.parameters.json', '"value": "api-service-siex" }', '"value": "api-service-siex-dev" }');
    expect((await findings(c.ctx)).join('\n')).toMatch(
      /main\.prod\.parameters\.json: apiServiceSiexProduct must be 'api-service-siex'/,
    );
  });

  // Platform.

  it('report shared keys left on, and a missing role of the function identity', async () => {
    const c = copy();
    c.edit('modules/storage.bicep', 'allowSharedKeyAccess: false', 'allowSharedKeyAccess: true');
    c.edit(
      'modules/functionApp.bicep',
      "roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.tableDataContributor)",
      "roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.blobDataOwner)",
    );
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/allowSharedKeyAccess must be false/);
    expect(out).toMatch(/the function identity lacks Storage Table Data Contributor/);
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

  it('report a missing Sid-Key check, a kept subscription key, a forgeable identity header, a missing function key', async () => {
    const c = copy();
    c.edit('policies/api.xml', 'GetValueOrDefault("Ocp-Apim-Sid-Key", "")', 'GetValueOrDefault("Ocp-Apim-Sid", "")');
    c.edit('policies/api.xml', '<set-header name="Ocp-Apim-Subscription-Key" exists-action="delete" />', '');
    c.edit(
      'policies/api.xml',
      '<set-header name="X-Apim-Subscription-Id" exists-action="override">',
      '<set-header name="X-Apim-Subscription-Id" exists-action="skip">',
    );
    c.edit('policies/api.xml', '<value>{{function-host-key}}</value>', '<value>{{function-key}}</value>');
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/a missing Ocp-Apim-Sid-Key must be answered 401/);
    expect(out).toMatch(/Ocp-Apim-Subscription-Key must be removed before the backend/);
    expect(out).toMatch(/X-Apim-Subscription-Id must be set with exists-action="override"/);
    expect(out).toMatch(/x-functions-key must be set \(override\) from \{\{function-host-key\}\}/);
    expect(out).toMatch(/named value \{\{function-key\}\} is not defined/);
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
    c.edit('modules/apim.bicep', "loadTextContent('../openapi.json')", "loadTextContent('../policies/api.xml')");
    c.edit(
      'modules/apim.bicep',
      "serviceUrl: 'https://${functionAppHostName}'\n    subscriptionRequired: true",
      "serviceUrl: 'https://${functionAppHostName}'\n    subscriptionRequired: false",
    );
    const out = (await findings(c.ctx)).join('\n');
    expect(out).toMatch(/the API's value must be loadTextContent of infra\/openapi\.json/);
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
});
