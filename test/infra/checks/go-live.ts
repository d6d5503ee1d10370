/**
 * A production go-live that completes (issue 36, item 5, H2): azd maps the parameters a private production needs
 * (vnetEnabled, operatorIpRanges, lockResources) from its environment, the operators' addresses reach the vault, and a
 * deployment is not complete until every Key Vault reference of the app resolves (the postdeploy hook fails it
 * otherwise, in both shells); `azd down` is followed by removing what it leaves (the postdown hook).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { getProperty } from '../bicep';
import { parameterValues } from './backups';
import { Finding, Infra } from './model';
import { PARAMETER_FILES } from './parameters';

/** The parameters azd must take from its environment, and the variable each comes from. */
const AZD_MAPPED: Record<string, string> = {
  vnetEnabled: 'VNET_ENABLED',
  operatorIpRanges: 'OPERATOR_IP_RANGES',
  lockResources: 'LOCK_RESOURCES',
};

function finding(file: string, message: string): Finding {
  return { check: 'go-live', file, message };
}

export function checkGoLive(infra: Infra, azureYamlFile: string): Finding[] {
  const out: Finding[] = [];
  const azd = parameterValues(infra, PARAMETER_FILES.azd);
  if (azd)
    for (const [param, variable] of Object.entries(AZD_MAPPED))
      if (!new RegExp(`^\\$\\{${variable}(=[^}]*)?\\}$`).test(typeof azd[param] === 'string' ? azd[param] : ''))
        out.push(
          finding(
            `infra/${PARAMETER_FILES.azd}`,
            `${param} must come from azd's ${variable}: production's go-live sets it (docs/operations.md, "From an empty subscription")`,
          ),
        );
  const main = infra.main;
  const vault = main?.modules.find((m) => m.symbol === 'keyVault');
  const ranges = getProperty(vault?.body, 'params', 'operatorIpRanges')?.text ?? '';
  if (main && !/operatorIpRanges|operatorRanges/.test(ranges))
    out.push(finding('infra/main.bicep', "module keyVault must get the operators' addresses (operatorIpRanges)"));
  out.push(...checkHooks(azureYamlFile));
  return out;
}

/** The postdeploy hook proves the Key Vault references resolve; the postdown hook removes what azd down leaves. */
function checkHooks(azureYamlFile: string): Finding[] {
  const file = path.basename(azureYamlFile);
  let yaml: unknown;
  try {
    yaml = parse(fs.readFileSync(azureYamlFile, 'utf8'));
  } catch {
    return []; // reported by checkAzureYaml
  }
  const run = (hook: string, shell: string) => {
    const hooks = (yaml as { hooks?: Record<string, Record<string, { run?: unknown; continueOnError?: unknown }>> })
      .hooks;
    const h = hooks?.[hook]?.[shell];
    return h && h.continueOnError === false && typeof h.run === 'string' ? h.run : '';
  };
  const out: Finding[] = [];
  for (const shell of ['posix', 'windows']) {
    if (!run('postdeploy', shell).includes('deploy-checks.js verify-key-vault-references'))
      out.push(
        finding(
          file,
          `the postdeploy hook (${shell}) must run deploy-checks.js verify-key-vault-references and stop the deployment when a reference does not resolve`,
        ),
      );
    if (!run('postdown', shell).includes('deploy-checks.js teardown'))
      out.push(
        finding(
          file,
          `the postdown hook (${shell}) must run deploy-checks.js teardown: azd down leaves the subscription's activity-log setting, the custom role and the Entra ID application`,
        ),
      );
  }
  return out;
}
