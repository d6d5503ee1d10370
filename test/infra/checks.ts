/**
 * Offline checks of infra/ (the Bicep CLI, az and Functions Core Tools cannot be installed here), one module per topic
 * under checks/. Every check takes what it reads as arguments, so the same functions run on the real infra/
 * (infra.test.ts) and on copies broken on purpose (checks-bite.test.ts). A check returns findings; none means it passed.
 *
 * What a check cannot see, a deployment will: docs/operations.md lists those ("After the first deployment: what to watch").
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
import { CheckContext, Finding, loadInfra, verifiedTypeNames } from './checks/model';
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

export async function runAllChecks(ctx: CheckContext): Promise<Finding[]> {
  const infra = await loadInfra(ctx.infraDir);
  return [
    ...checkBicepSyntax(infra),
    ...checkLoadedFiles(infra),
    ...checkModules(infra),
    ...checkSymbols(infra),
    ...checkResourceTypes(infra, ctx.verifiedResourceTypes),
    ...checkProperties(infra, ctx.resourceSchemas, verifiedTypeNames(ctx.verifiedResourceTypes)),
    ...checkParameterFiles(infra),
    ...checkSecrets(infra),
    ...checkAppSettings(infra, ctx),
    ...checkPlatform(infra),
    ...checkRoles(infra),
    ...checkLocalAuth(infra),
    ...checkDiagnostics(infra),
    ...checkBackendAuth(infra),
    ...checkApim(infra),
    ...checkPolicies(infra, ctx.errorCodes),
    ...checkAzureYaml(infra, ctx.azureYamlFile),
    ...checkOperations(infra),
    ...checkProvision(infra),
    ...checkDataPlane(infra),
    ...checkDataAccounts(infra),
    ...checkBackups(infra),
    ...checkGoLive(infra, ctx.azureYamlFile),
    ...checkMonitoring(infra, ctx.hostJsonFile),
    ...checkEdges(infra),
    ...checkSandbox(infra),
  ];
}
