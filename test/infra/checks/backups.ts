/**
 * The backups' protection (issue 36, item 4):
 * - H1, WORM that holds: the backup account's immutability policy takes its state from main.bicep's
 *   backupImmutability (never a literal, so a provision after the lock does not send Unlocked again), production's
 *   parameters say Locked, azd keeps the value (BACKUP_IMMUTABILITY), production refuses Disabled, and activity-log
 *   alerts watch lock deletions, immutability policy changes, role assignments and writes to the backup account;
 * - M2: production's backups geo-redundant (GZRS or GRS), private when vnetEnabled, aged and deleted by lifecycle rules;
 * - M3: outside production no version-level immutability, so `azd down` can delete the account.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Node } from 'web-tree-sitter';
import { BicepFile, getProperty, literalValue, stringValue } from '../bicep';
import { Finding, Infra, moduleTarget, rel, Resource } from './model';
import { PARAMETER_FILES } from './parameters';

const AT_MAIN = 'infra/main.bicep';

function finding(file: string, message: string): Finding {
  return { check: 'backups', file, message };
}

function moduleOf(infra: Infra, symbol: string): { params: Node | undefined; file: BicepFile | undefined } {
  const module = infra.main?.modules.find((m) => m.symbol === symbol);
  return {
    params: getProperty(module?.body, 'params'),
    file: module && infra.main ? moduleTarget(infra, infra.main, module.source) : undefined,
  };
}

/** A parameter file's values (undefined when it cannot be read: the parameter-files check says why). */
export function parameterValues(infra: Infra, name: string): Record<string, unknown> | undefined {
  try {
    const doc = JSON.parse(fs.readFileSync(path.join(infra.dir, name), 'utf8')) as {
      parameters?: Record<string, { value?: unknown }>;
    };
    return Object.fromEntries(Object.entries(doc.parameters ?? {}).map(([k, v]) => [k, v.value]));
  } catch {
    return undefined;
  }
}

const accountOf = (file: BicepFile | undefined): Resource | undefined =>
  file?.resources.find((r) => !r.existing && r.typeAndVersion.startsWith('Microsoft.Storage/storageAccounts@'));

export function checkBackups(infra: Infra): Finding[] {
  const main = infra.main;
  if (!main) return [];
  const backup = moduleOf(infra, 'backup');
  if (!backup.file) return [finding(AT_MAIN, 'module backup (modules/backup.bicep) is missing')];
  return [
    ...checkLockedWorm(infra, main, backup),
    ...checkWormAlerts(infra),
    ...checkBackupAccount(infra, backup),
    ...checkDevelopmentTeardown(infra, main, backup),
  ];
}

/** H1: the policy's state is a parameter, Locked in production's parameters, kept by azd, never Disabled in production. */
function checkLockedWorm(
  infra: Infra,
  main: BicepFile,
  backup: { params: Node | undefined; file: BicepFile | undefined },
): Finding[] {
  const out: Finding[] = [];
  const file = backup.file!;
  const at = rel(infra, file.file);
  const state = accountOf(file)
    ?.body?.descendantsOfType('object_property')
    .find((p) => p?.namedChildren[0]?.text === 'state');
  const stateValue = state?.namedChildren.at(-1);
  if (!stateValue || stateValue.type !== 'identifier' || !file.params.has(stateValue.text))
    out.push(
      finding(
        at,
        "the immutability policy's state must be a parameter of the module, not a literal: a provision after the lock must send Locked again (Azure refuses to unlock)",
      ),
    );
  const param = stateValue && file.params.get(stateValue.text);
  if (param && JSON.stringify(param.allowed) !== JSON.stringify(['Disabled', 'Unlocked', 'Locked']))
    out.push(finding(at, `parameter ${param.name} must allow Disabled, Unlocked and Locked`));
  const passed = stateValue && getProperty(backup.params, stateValue.text)?.text;
  const guard = passed ? (main.vars.get(passed)?.text ?? '') : '';
  if (!passed || !/isProduction && \w+ == 'Disabled'\s*\?\s*fail\(/.test(guard))
    out.push(
      finding(
        AT_MAIN,
        "module backup's immutability must come from a variable that fails production on 'Disabled' (fail())",
      ),
    );
  const setting = main.params.get('backupImmutability');
  if (!setting) out.push(finding(AT_MAIN, 'parameter backupImmutability is missing'));
  else {
    if (!setting.allowed?.includes('Locked'))
      out.push(finding(AT_MAIN, 'parameter backupImmutability must allow Locked'));
    if (/Locked/.test(setting.defaultValue?.text ?? ''))
      out.push(finding(AT_MAIN, 'backupImmutability must not default to Locked: Azure creates a policy Unlocked'));
    if (!/'Unlocked'/.test(guard + (main.vars.get('backupImmutabilityState')?.text ?? '')))
      out.push(finding(AT_MAIN, "production's first deployment must default to an Unlocked policy"));
  }
  const prod = parameterValues(infra, PARAMETER_FILES.prod);
  if (prod && prod.backupImmutability !== 'Locked')
    out.push(
      finding(
        `infra/${PARAMETER_FILES.prod}`,
        `backupImmutability must be 'Locked' (production after its first deployment), is ${JSON.stringify(prod.backupImmutability)}`,
      ),
    );
  const azd = parameterValues(infra, PARAMETER_FILES.azd);
  if (azd && !/^\$\{BACKUP_IMMUTABILITY(=[^}]*)?\}$/.test(String(azd.backupImmutability)))
    out.push(
      finding(
        `infra/${PARAMETER_FILES.azd}`,
        "backupImmutability must come from azd's BACKUP_IMMUTABILITY, so the environment keeps Locked once set",
      ),
    );
  return out;
}

/** The activity-log alerts H1 asks for, each found by the operation or resource its condition names. */
const WORM_ALERTS: { what: string; test: RegExp }[] = [
  { what: 'a deleted lock', test: /Microsoft\.Authorization\/locks\/delete/ },
  { what: 'an immutability policy change', test: /immutabilityPolicies\/(write|delete|lock\/action|extend\/action)/ },
  { what: 'a role assignment', test: /Microsoft\.Authorization\/roleAssignments\/write/ },
  { what: 'a write to the backup account', test: /backupAccountId[\s\S]*Microsoft\.Storage\/storageAccounts\/write/ },
];

function checkWormAlerts(infra: Infra): Finding[] {
  const alerts = infra.main?.modules.find((m) => m.symbol === 'alerts');
  const file = alerts && infra.main ? moduleTarget(infra, infra.main, alerts.source) : undefined;
  if (!file) return [];
  const at = rel(infra, file.file);
  const resources = file.resources.filter((r) => r.typeAndVersion.startsWith('Microsoft.Insights/activityLogAlerts@'));
  if (resources.length === 0)
    return [finding(at, 'activity-log alerts (Microsoft.Insights/activityLogAlerts) are missing')];
  // The alerts are written as a variable's entries looped over, or as resources: read whichever holds the conditions.
  const text = [...resources.map((r) => r.node.text), ...[...file.vars.values()].map((v) => v.text)]
    .join('\n')
    .split(/\n\s*\{\s*\n\s*name:/);
  const out: Finding[] = [];
  for (const { what, test } of WORM_ALERTS)
    if (!text.some((entry) => test.test(entry)))
      out.push(finding(at, `an activity-log alert on ${what} is missing (WORM that holds: issue 36, H1)`));
  return out;
}

/** M2: geo-redundant in production, private with the data plane, lifecycle rules. */
function checkBackupAccount(
  infra: Infra,
  backup: { params: Node | undefined; file: BicepFile | undefined },
): Finding[] {
  const out: Finding[] = [];
  const sku = getProperty(backup.params, 'skuName')?.text ?? '';
  if (!/^isProduction \?[\s\S]*'Standard_(RA-)?G(Z)?RS'/.test(sku) || /isProduction \? 'Standard_(LRS|ZRS)'/.test(sku))
    out.push(
      finding(AT_MAIN, "module backup's skuName must be geo-redundant in production (Standard_GZRS or Standard_GRS)"),
    );
  if (getProperty(backup.params, 'privateOnly')?.text !== 'vnetEnabled')
    out.push(
      finding(AT_MAIN, 'module backup must get privateOnly: vnetEnabled (no public endpoint with the data plane)'),
    );
  const file = backup.file!;
  const at = rel(infra, file.file);
  const account = accountOf(file);
  if (getProperty(account?.body, 'properties', 'publicNetworkAccess')?.text !== "privateOnly ? 'Disabled' : 'Enabled'")
    out.push(finding(at, "the backup account's publicNetworkAccess must be privateOnly ? 'Disabled' : 'Enabled'"));
  const lifecycle = file.resources.find((r) =>
    r.typeAndVersion.startsWith('Microsoft.Storage/storageAccounts/managementPolicies@'),
  );
  const rules = getProperty(lifecycle?.body, 'properties', 'policy', 'rules');
  if (!lifecycle || !rules || !/delete:/.test(rules.text) || !/tierTo(Cool|Cold)/.test(rules.text))
    out.push(
      finding(
        at,
        'lifecycle rules (managementPolicies) must move old backups to a cooler tier and delete them after their retention',
      ),
    );
  return out;
}

/** M3: development keeps no version-level immutability, so its account (and resource group) can be deleted. */
function checkDevelopmentTeardown(
  infra: Infra,
  main: BicepFile,
  backup: { params: Node | undefined; file: BicepFile | undefined },
): Finding[] {
  const out: Finding[] = [];
  const dev = parameterValues(infra, PARAMETER_FILES.dev);
  if (dev && dev.backupImmutability !== 'Disabled')
    out.push(
      finding(
        `infra/${PARAMETER_FILES.dev}`,
        `backupImmutability must be 'Disabled' (azd down must be able to delete development), is ${JSON.stringify(dev.backupImmutability)}`,
      ),
    );
  if (!/isProduction \? 'Unlocked' : 'Disabled'/.test(main.vars.get('backupImmutabilityState')?.text ?? ''))
    out.push(finding(AT_MAIN, "backupImmutability's default must be Disabled outside production"));
  const file = backup.file!;
  const versioning = getProperty(accountOf(file)?.body, 'properties', 'immutableStorageWithVersioning');
  const disabled = versioning?.type === 'ternary_expression' ? versioning.namedChildren : [];
  const [condition, whenDisabled] = disabled;
  if (
    !condition ||
    !/== 'Disabled'/.test(condition.text) ||
    literalValue(getProperty(whenDisabled, 'enabled')) !== false
  )
    out.push(
      finding(
        rel(infra, file.file),
        'immutableStorageWithVersioning must be { enabled: false } when the state is Disabled: an account with it enabled is deleted only empty, so azd down would fail',
      ),
    );
  const lock = file.resources.find((r) => r.typeAndVersion.startsWith('Microsoft.Authorization/locks@'));
  if (lock && !/^if \(lock\)/.test(lock.node.namedChildren.at(-1)?.text ?? ''))
    out.push(finding(rel(infra, file.file), 'the backup lock must be conditional (lockResources: production only)'));
  if (stringValue(getProperty(backup.params, 'immutability')) !== undefined)
    out.push(finding(AT_MAIN, "module backup's immutability must not be a literal"));
  return out;
}
