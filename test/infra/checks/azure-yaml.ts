/** azure.yaml: what azd provisions and deploys. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { Finding, Infra } from './model';

/** azd provisions infra/main.bicep and deploys this project as the function app service `api`. */
export function checkAzureYaml(infra: Infra, azureYamlFile: string): Finding[] {
  const out: Finding[] = [];
  const file = path.basename(azureYamlFile);
  if (!fs.existsSync(azureYamlFile)) return [{ check: 'azure-yaml', file, message: 'missing' }];
  let yaml: unknown;
  try {
    yaml = parse(fs.readFileSync(azureYamlFile, 'utf8'));
  } catch (e) {
    return [{ check: 'azure-yaml', file, message: `not YAML: ${(e as Error).message}` }];
  }
  const get = (...keys: string[]) =>
    keys.reduce<unknown>((n, k) => (n && typeof n === 'object' ? (n as Record<string, unknown>)[k] : undefined), yaml);
  const expect = (keys: string[], value: string) => {
    if (get(...keys) !== value)
      out.push({
        check: 'azure-yaml',
        file,
        message: `${keys.join('.')} must be '${value}', is ${JSON.stringify(get(...keys))}`,
      });
  };
  expect(['infra', 'provider'], 'bicep');
  expect(['infra', 'path'], path.basename(infra.dir) === 'infra' ? 'infra' : path.basename(infra.dir));
  expect(['infra', 'module'], 'main');
  expect(['services', 'api', 'project'], '.');
  expect(['services', 'api', 'language'], 'js');
  expect(['services', 'api', 'host'], 'function');
  // The lean package npm run build writes (local/build-package.ts), never the repository with its dev tooling.
  expect(['services', 'api', 'dist'], 'dist/deploy');
  if (!/write-openapi\.js --check/.test(JSON.stringify(get('hooks', 'preprovision', 'posix', 'run') ?? '')))
    out.push({
      check: 'azure-yaml',
      file,
      message: 'the preprovision hook must check infra/openapi.json (write-openapi.js --check)',
    });
  // Issue 27, item 6: the package upload waits for the app's roles; the deployment fails unless the host answers 401.
  const hooks: [string, string][] = [
    ['predeploy', 'deploy-checks.js wait-for-roles'],
    ['postdeploy', 'deploy-checks.js verify-backend'],
    // Issue 38 item 11: the sandbox profile's data (T4), its SIEX simulator's package and its smoke run (T2, T6).
    ['postprovision', 'sandbox-setup.js provision'],
    ['postdeploy', 'sandbox-setup.js deploy'],
  ];
  for (const [hook, command] of hooks)
    for (const shell of ['posix', 'windows']) {
      const run = get('hooks', hook, shell, 'run');
      if (typeof run !== 'string' || !run.includes(command) || get('hooks', hook, shell, 'continueOnError') !== false)
        out.push({
          check: 'azure-yaml',
          file,
          message: `the ${hook} hook (${shell}) must run ${command} and stop the deployment when it fails`,
        });
    }
  return out;
}
