/**
 * The sandbox profile (issue 38 item 11, docs/sandbox.md): `profile` selects it, production refuses it as it refuses the
 * Consumption tier, a setting that contradicts it stops the deployment, its backups have no WORM, and its SIEX is the
 * simulator app (modules/siexSimulator.bicep): one instance, its own identity, no telemetry key, the gateway pointed at
 * it with no client certificate. The wrapper's function keys on /_control and /_inspect are tested with the wrapper
 * (test/unit/siex-simulator-function-app.test.ts).
 */
import { getProperty, literalValue } from '../bicep';
import {
  Finding,
  Infra,
  isSimulatorFile,
  mainExpression,
  moduleTarget,
  rel,
  resourcesOfType,
  SIMULATOR_MODULE,
} from './model';
import { parameterValues } from './backups';
import { PARAMETER_FILES } from './parameters';

const AT_MAIN = 'infra/main.bicep';

function finding(file: string, message: string): Finding {
  return { check: 'sandbox', file, message };
}

/** What the sandbox guard must refuse, each as the guard names it. */
const CONTRADICTIONS: { what: string; test: RegExp }[] = [
  { what: 'an API Management tier other than Consumption', test: /apimSku != 'Consumption'/ },
  { what: 'zone redundancy', test: /\bzoneRedundant\b/ },
  { what: 'locks', test: /\blockResources\b/ },
  { what: 'the private network', test: /\bvnetEnabled\b/ },
  { what: 'WORM backups', test: /backupImmutabilityState != 'Disabled'/ },
  { what: 'a real SIEX address', test: /!empty\(siexBaseUrl\)/ },
];

export function checkSandbox(infra: Infra): Finding[] {
  const main = infra.main;
  if (!main) return [];
  return [...checkProfile(infra), ...checkSimulatorWiring(infra), ...checkSimulatorApp(infra)];
}

/** T1 and T5: the parameter, production's refusal, the contradictions refused, the profile tagged on everything. */
function checkProfile(infra: Infra): Finding[] {
  const main = infra.main!;
  const out: Finding[] = [];
  const profile = main.params.get('profile');
  if (!profile || JSON.stringify(profile.allowed) !== JSON.stringify(['standard', 'sandbox']))
    out.push(finding(AT_MAIN, "parameter profile must allow exactly 'standard' and 'sandbox'"));
  else if (literalValue(profile.defaultValue) !== 'standard')
    out.push(finding(AT_MAIN, "parameter profile must default to 'standard'"));
  if (!/^profile == 'sandbox'$/.test(main.vars.get('isSandbox')?.text ?? ''))
    out.push(finding(AT_MAIN, "var isSandbox must be profile == 'sandbox'"));
  const guard = main.vars.get('checkedProfile')?.text ?? '';
  if (!/^isSandbox && isProduction\s*\?\s*fail\(/.test(guard))
    out.push(
      finding(
        AT_MAIN,
        'var checkedProfile must fail production on the sandbox profile first (isSandbox && isProduction ? fail(...))',
      ),
    );
  const [, contradictions = ''] = /:\s*isSandbox && \(([^?]*)\)\s*\?\s*fail\(/.exec(guard) ?? [];
  for (const { what, test } of CONTRADICTIONS)
    if (!test.test(contradictions))
      out.push(finding(AT_MAIN, `var checkedProfile must fail the sandbox profile with ${what}`));
  // A var is evaluated, and its fail() raised, only where it is used: in the tags every resource carries.
  if (getProperty(main.vars.get('tags'), 'profile')?.text !== 'checkedProfile')
    out.push(finding(AT_MAIN, 'var tags must carry profile: checkedProfile, so every deployment evaluates the guard'));
  const azd = parameterValues(infra, PARAMETER_FILES.azd);
  if (azd && !/^\$\{SIEX_GATEWAY_PROFILE(=standard)?\}$/.test(String(azd.profile)))
    out.push(
      finding(`infra/${PARAMETER_FILES.azd}`, "profile must come from azd's SIEX_GATEWAY_PROFILE (default standard)"),
    );
  for (const name of [PARAMETER_FILES.dev, PARAMETER_FILES.prod]) {
    const values = parameterValues(infra, name);
    if (values && values.profile !== undefined && values.profile !== 'standard')
      out.push(finding(`infra/${name}`, `profile must be standard (or absent), is ${JSON.stringify(values.profile)}`));
  }
  return out;
}

/** T2 and T3: the simulator deployed by the sandbox alone, and the gateway's SIEX settings pointed at it. */
function checkSimulatorWiring(infra: Infra): Finding[] {
  const main = infra.main!;
  const out: Finding[] = [];
  const module = main.modules.find((m) => moduleTarget(infra, main, m.source) && m.source === SIMULATOR_MODULE);
  if (!module) return [finding(AT_MAIN, `module ${SIMULATOR_MODULE} (the sandbox's SIEX) is missing`)];
  if (!/^if \(isSandbox\)/.test(module.node.namedChildren.at(-1)?.text ?? ''))
    out.push(finding(AT_MAIN, `module ${module.symbol} must be deployed if (isSandbox) only`));
  if (getProperty(module.body, 'params', 'identityPrincipalId')?.text !== 'identities.outputs.simulatorPrincipalId')
    out.push(
      finding(AT_MAIN, `module ${module.symbol} must run as identities.outputs.simulator* (an identity of its own)`),
    );
  const identities = main.modules.find((m) => m.symbol === 'identities');
  if (!/^isSandbox \?[^:]+: ''$/.test(getProperty(identities?.body, 'params', 'simulatorIdentityName')?.text ?? ''))
    out.push(
      finding(
        AT_MAIN,
        "module identities must create the simulator's identity in the sandbox only (isSandbox ? ... : '')",
      ),
    );
  const settings = getProperty(main.modules.find((m) => m.symbol === 'functionApp')?.body, 'params', 'appSettings');
  const baseUrl = getProperty(settings, 'SIEX_BASE_URL')?.text ?? '';
  if (
    !new RegExp(`^isSandbox \\? 'https://\\$\\{${module.symbol}\\.outputs\\.defaultHostName\\}' : siexBaseUrl$`).test(
      baseUrl,
    )
  )
    out.push(
      finding(
        AT_MAIN,
        `SIEX_BASE_URL must be the simulator's address in the sandbox, siexBaseUrl elsewhere, is ${baseUrl}`,
      ),
    );
  if (!/^isSandbox \? '' : '@Microsoft\.KeyVault\(/.test(getProperty(settings, 'SIEX_CLIENT_CERT')?.text ?? ''))
    out.push(
      finding(
        AT_MAIN,
        "SIEX_CLIENT_CERT must be empty in the sandbox (the simulator asks for none) and the vault's elsewhere",
      ),
    );
  return out;
}

/** T2: one instance (its state is in memory), Node 22, its own identity everywhere, no telemetry key. */
function checkSimulatorApp(infra: Infra): Finding[] {
  const out: Finding[] = [];
  const sites = resourcesOfType(infra, 'Microsoft.Web/sites').filter(
    (r) => !r.resource.existing && isSimulatorFile(infra, r.file),
  );
  const [only] = sites;
  if (sites.length !== 1 || !only)
    return [finding(`infra/${SIMULATOR_MODULE}`, `expected one site, found ${sites.length}`)];
  const { file, resource: site } = only;
  const at = rel(infra, file.file);
  const config = getProperty(site.body, 'properties', 'functionAppConfig');
  if (literalValue(getProperty(config, 'scaleAndConcurrency', 'maximumInstanceCount')) !== 1)
    out.push(
      finding(
        at,
        'maximumInstanceCount must be the literal 1: two instances would be two SIEXes, each with its own state',
      ),
    );
  if (JSON.stringify(literalValue(getProperty(config, 'runtime'))) !== JSON.stringify({ name: 'node', version: '22' }))
    out.push(finding(at, 'functionAppConfig.runtime must be node 22'));
  const named = [
    getProperty(config, 'deployment', 'storage', 'authentication', 'userAssignedIdentityResourceId'),
    getProperty(site.body, 'properties', 'keyVaultReferenceIdentity'),
  ].map((n) => mainExpression(infra, file, n));
  if (
    literalValue(getProperty(site.body, 'identity', 'type')) !== 'UserAssigned' ||
    !named.every((e) => e === 'identities.outputs.simulatorIdentityId') ||
    !/\$\{identityId\}/.test(getProperty(site.body, 'identity')?.text ?? '')
  )
    out.push(
      finding(
        at,
        "the simulator must run, read its package and resolve its Key Vault reference as the simulator's identity",
      ),
    );
  const settingsNode = getProperty(site.body, 'properties', 'siteConfig', 'appSettings');
  const setting = (name: string) =>
    (settingsNode?.namedChildren ?? []).find((item) => literalValue(getProperty(item, 'name')) === name);
  if (/APPLICATIONINSIGHTS_CONNECTION_STRING|InstrumentationKey/.test(settingsNode?.text ?? ''))
    out.push(
      finding(
        at,
        'the simulator sends no telemetry: no Application Insights connection string (a key) in its settings',
      ),
    );
  const password = getProperty(setting('SIMULATOR_PASSWORD'), 'value')?.text ?? '';
  if (!/^'@Microsoft\.KeyVault\(VaultName=\$\{vault\.name\};SecretName=siex-password\)'$/.test(password))
    out.push(finding(at, "SIMULATOR_PASSWORD must be the vault's siex-password, the secret the gateway reads"));
  return out;
}
