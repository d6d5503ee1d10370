/**
 * Offline checks of infra/ (issue 5). Each category is one test, so a failure names what broke; checks/ explains
 * every rule, checks-bite.test.ts proves they fail on broken copies.
 */
import { checkApim } from './checks/apim';
import { checkAppSettings } from './checks/app-settings';
import { checkAzureYaml } from './checks/azure-yaml';
import { checkBackups } from './checks/backups';
import { checkEdges } from './checks/edges';
import { checkGoLive } from './checks/go-live';
import { checkMonitoring } from './checks/monitoring';
import { checkBackendAuth } from './checks/backend-auth';
import { checkDataAccounts } from './checks/data-accounts';
import { checkDataPlane } from './checks/data-plane';
import { checkDiagnostics } from './checks/diagnostics';
import { checkLocalAuth } from './checks/local-auth';
import { Finding, formatFinding, Infra, loadInfra, verifiedTypeNames } from './checks/model';
import { checkOperations } from './checks/operations';
import { checkParameterFiles } from './checks/parameters';
import { checkPlatform } from './checks/platform';
import { checkPolicies } from './checks/policies';
import { checkProperties } from './checks/properties';
import { checkProvision } from './checks/provision';
import { checkResourceTypes } from './checks/resource-types';
import { checkRoles } from './checks/roles';
import { checkSandbox } from './checks/sandbox';
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

  it('uses resource types and API versions found in the official type definitions', () => {
    expect(messages(checkResourceTypes(infra, ctx.verifiedResourceTypes))).toEqual([]);
  });

  it('writes only properties the official type definitions accept, and none of their read-only ones', () => {
    expect(messages(checkProperties(infra, ctx.resourceSchemas, verifiedTypeNames(ctx.verifiedResourceTypes)))).toEqual(
      [],
    );
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

  it('runs the app on Flex Consumption (Node 22) as its own user-assigned identity', () => {
    expect(messages(checkPlatform(infra))).toEqual([]);
  });

  it('grants each identity exactly the reviewed roles, each on the kind of resource it needs', () => {
    expect(messages(checkRoles(infra))).toEqual([]);
  });

  it('leaves no local authentication on: shared keys, access keys, instrumentation keys, publishing passwords', () => {
    expect(messages(checkLocalAuth(infra))).toEqual([]);
  });

  it('sends every resource log to Log Analytics and API Management requests to Application Insights, keys hidden', () => {
    expect(messages(checkDiagnostics(infra))).toEqual([]);
  });

  it('lets only API Management reach the backend, with its identity, and reads no key at deployment', () => {
    expect(messages(checkBackendAuth(infra))).toEqual([]);
  });

  it('puts API Management in front: product per environment, subscription key, OpenAPI import', () => {
    expect(messages(checkApim(infra))).toEqual([]);
  });

  it('lets azd provision infra/main.bicep and deploy the project as the function app service api', () => {
    expect(messages(checkAzureYaml(infra, ctx.azureYamlFile))).toEqual([]);
  });

  it('has well-formed policies with the limits, the header rules and problem-details errors', () => {
    expect(messages(checkPolicies(infra, ctx.errorCodes))).toEqual([]);
  });

  it('keeps the data plane private in production, host storage apart, and no standing deployer roles', () => {
    expect(messages(checkDataPlane(infra))).toEqual([]);
  });

  it('deploys dataAccountCount data accounts alike: each locked, behind its endpoint, read by the app and its backup, listed', () => {
    expect(messages(checkDataAccounts(infra))).toEqual([]);
  });

  it('provisions deterministically: the site written in sequence, a custom role defined before it is assigned', () => {
    expect(messages(checkProvision(infra))).toEqual([]);
  });

  it('locks the legal records and the SIEX credentials, alerts the operators, and guards production', () => {
    expect(messages(checkOperations(infra))).toEqual([]);
  });

  it('keeps the backups immutable once locked, geo-redundant and private in production, deletable in development', () => {
    expect(messages(checkBackups(infra))).toEqual([]);
  });

  it('completes a production go-live: azd maps the private network, the Key Vault references are proved, teardown is whole', () => {
    expect(messages(checkGoLive(infra, ctx.azureYamlFile))).toEqual([]);
  });

  it('alerts on what the review found silent, samples no event, and probes /v1/health with a key of that one operation', () => {
    expect(messages(checkMonitoring(infra, ctx.hostJsonFile))).toEqual([]);
  });

  it('offers a sandbox profile production refuses: Consumption, no WORM, no locks, the SIEX simulator as one instance', () => {
    expect(messages(checkSandbox(infra))).toEqual([]);
  });

  it('guards the network edges, names no cloud domain, has a budget, and lets Entra ID issue backend tokens to API Management only', () => {
    expect(messages(checkEdges(infra))).toEqual([]);
  });
});
