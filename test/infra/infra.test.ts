/**
 * Offline checks of infra/ (issue 5). Each category is one test, so a failure names what broke; checks/ explains
 * every rule, checks-bite.test.ts proves they fail on broken copies.
 */
import { checkApim } from './checks/apim';
import { checkAppSettings } from './checks/app-settings';
import { checkAzureYaml } from './checks/azure-yaml';
import { Finding, formatFinding, Infra, loadInfra } from './checks/model';
import { checkParameterFiles } from './checks/parameters';
import { checkPlatform } from './checks/platform';
import { checkPolicies } from './checks/policies';
import { checkResourceTypes } from './checks/resource-types';
import { checkSecrets } from './checks/secrets';
import { checkBicepSyntax, checkLoadedFiles, checkModules, checkSymbols } from './checks/template';
import { INFRA_DIR, realContext } from './context';

const messages = (findings: Finding[]) => findings.map(formatFinding);

describe('infra/ (offline checks)', () => {
  let infra: Infra;
  const ctx = realContext();

  beforeAll(async () => {
    infra = await loadInfra(INFRA_DIR);
  });

  it('parses every .bicep file with tree-sitter-bicep, without ERROR or MISSING nodes', () => {
    expect(infra.files.size).toBeGreaterThanOrEqual(2);
    expect(messages(checkBicepSyntax(infra))).toEqual([]);
  });

  it('loads only files that exist, within Bicep size limits', () => {
    expect(messages(checkLoadedFiles(infra))).toEqual([]);
  });

  it('uses local modules that exist, with the parameters they declare and the outputs they have', () => {
    expect(messages(checkModules(infra))).toEqual([]);
  });

  it('uses no undeclared symbol', () => {
    expect(messages(checkSymbols(infra))).toEqual([]);
  });

  it('uses resource types and API versions checked against the documentation', () => {
    expect(messages(checkResourceTypes(infra, ctx.verifiedResourceTypes))).toEqual([]);
  });

  it('has dev, prod and azd parameter files that match the template parameters', () => {
    expect(messages(checkParameterFiles(infra))).toEqual([]);
  });

  it('marks secret-looking parameters @secure() and outputs no secret', () => {
    expect(messages(checkSecrets(infra))).toEqual([]);
  });

  it('sets exactly the settings of shared/config/settings.ts, also listed in local.settings.sample.json', () => {
    expect(messages(checkAppSettings(infra, ctx))).toEqual([]);
  });

  it('runs the app on Flex Consumption (Node 22) with a managed identity, its roles, and no shared keys', () => {
    expect(messages(checkPlatform(infra))).toEqual([]);
  });

  it('puts API Management in front: product per environment, subscription key, OpenAPI import, Key Vault named value', () => {
    expect(messages(checkApim(infra))).toEqual([]);
  });

  it('lets azd provision infra/main.bicep and deploy the project as the function app service api', () => {
    expect(messages(checkAzureYaml(infra, ctx.azureYamlFile))).toEqual([]);
  });

  it('has well-formed policies with the limits, the header rules and problem-details errors', () => {
    expect(messages(checkPolicies(infra, ctx.errorCodes))).toEqual([]);
  });
});
