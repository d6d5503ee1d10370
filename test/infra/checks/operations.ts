/**
 * What keeps the service operable for years: the legal records and the SIEX credentials cannot be deleted by accident
 * (CanNotDelete locks on the data storage account and the Key Vault, on in production), operators hear of trouble
 * (every alert rule reaches the action group, each query is a file under infra/monitoring that kql.test.ts analyses, an
 * availability test runs), and production refuses what would leave it blind (a Consumption API Management, no alert
 * address).
 */
import { BicepFile, getProperty, literalValue, stringValue } from '../bicep';
import { Finding, Infra, moduleTarget, rel } from './model';

/** The modules that hold what must not be deleted, and why. */
const LOCKED_MODULES: Record<string, string> = {
  storage: "the farms' legal records",
  keyVault: 'the SIEX certificate and credentials',
  backup: 'the backups of the legal records',
  apim: "every client's subscription and API key",
};

export function checkOperations(infra: Infra): Finding[] {
  const main = infra.main;
  if (!main) return [];
  return [
    ...checkLocks(infra, main),
    ...checkAlerts(infra, main),
    ...checkProductionGuards(main),
    ...checkSiexConcurrency(infra, main),
  ];
}

function finding(file: string, message: string): Finding {
  return { check: 'operations', file, message };
}

function checkLocks(infra: Infra, main: BicepFile): Finding[] {
  const out: Finding[] = [];
  const lockDefault = main.params.get('lockResources')?.defaultValue?.text ?? '';
  if (lockDefault !== "apiServiceSiexProduct == 'api-service-siex'")
    out.push(
      finding(
        'infra/main.bicep',
        "lockResources must default to on in production (apiServiceSiexProduct == 'api-service-siex')",
      ),
    );
  for (const [symbol, holds] of Object.entries(LOCKED_MODULES)) {
    const module = main.modules.find((m) => m.symbol === symbol);
    if (getProperty(module?.body, 'params', 'lock')?.text !== 'lockResources')
      out.push(finding('infra/main.bicep', `module ${symbol} must get lock: lockResources (it holds ${holds})`));
    const target = module && moduleTarget(infra, main, module.source);
    if (!target) continue;
    const lock = target.resources.find((r) => r.typeAndVersion.startsWith('Microsoft.Authorization/locks@'));
    const scoped = target.resources.find(
      (r) => r.symbol === getProperty(lock?.body, 'scope')?.text && !r.typeAndVersion.startsWith('Microsoft.Insights/'),
    );
    if (!lock || !scoped || stringValue(getProperty(lock.body, 'properties', 'level')) !== 'CanNotDelete')
      out.push(
        finding(rel(infra, target.file), `a CanNotDelete lock scoped to the resource that holds ${holds} is missing`),
      );
  }
  return out;
}

function checkAlerts(infra: Infra, main: BicepFile): Finding[] {
  const out: Finding[] = [];
  const module = main.modules.find((m) => m.symbol === 'alerts');
  const target = module && moduleTarget(infra, main, module.source);
  if (!target) return [finding('infra/main.bicep', 'module alerts (modules/alerts.bicep) is missing')];
  const at = rel(infra, target.file);
  const byType = (type: string) => target.resources.filter((r) => r.typeAndVersion.startsWith(`${type}@`));
  const [group] = byType('Microsoft.Insights/actionGroups');
  if (!group) out.push(finding(at, 'an action group is missing'));
  if (byType('Microsoft.Insights/webtests').length === 0) out.push(finding(at, 'an availability test is missing'));
  const ruleList = literalRules(target);
  if (ruleList.length === 0) out.push(finding(at, 'the alert rules (var rules) are missing'));
  for (const rule of ruleList)
    if (!/^loadTextContent\('\.\.\/monitoring\/[a-z0-9-]+\.kql'\)$/.test(rule.query))
      out.push(finding(at, `rule ${rule.name}: its query must be loadTextContent('../monitoring/<name>.kql')`));
  for (const alert of byType('Microsoft.Insights/scheduledQueryRules')) {
    const groups = getProperty(alert.body, 'properties', 'actions', 'actionGroups')?.text ?? '';
    if (!group || !groups.includes(`${group.symbol}.id`))
      out.push(finding(at, `${alert.symbol}: its alerts must reach the action group`));
  }
  return out;
}

/** The `rules` variable's entries: each rule's name and its query expression as written. */
export function literalRules(file: BicepFile): { name: string; query: string }[] {
  const rules = file.vars.get('rules');
  if (rules?.type !== 'array') return [];
  return rules.namedChildren
    .filter((n) => n?.type === 'object')
    .map((n) => ({
      name: String(literalValue(getProperty(n ?? undefined, 'name'))),
      query: getProperty(n ?? undefined, 'query')?.text ?? '',
    }));
}

function checkProductionGuards(main: BicepFile): Finding[] {
  const out: Finding[] = [];
  const vars = (name: string) => main.vars.get(name)?.text ?? '';
  if (!/isProduction && apimSku == 'Consumption'\s*\?\s*fail\(/.test(vars('checkedApimSku')))
    out.push(finding('infra/main.bicep', "production must refuse apimSku 'Consumption' with fail()"));
  if (!/isProduction && empty\(alertEmail\)\s*\?\s*fail\(/.test(vars('checkedAlertEmail')))
    out.push(finding('infra/main.bicep', 'production must refuse an empty alertEmail with fail()'));
  const apim = main.modules.find((m) => m.symbol === 'apim');
  if (getProperty(apim?.body, 'params', 'sku')?.text !== 'checkedApimSku')
    out.push(finding('infra/main.bicep', 'module apim must get sku: checkedApimSku'));
  return out;
}

/**
 * The most calls SIEX can receive at once is every instance the plan may run times the messages each works on: the
 * deployment refuses a product above siexMaxConcurrentCalls, and the function app takes its batch from that guard, with
 * no second batch while one runs.
 */
function checkSiexConcurrency(infra: Infra, main: BicepFile): Finding[] {
  const out: Finding[] = [];
  const guard = main.vars.get('checkedExportBatchSize')?.text ?? '';
  if (!/^functionMaximumInstanceCount \* exportBatchSize > siexMaxConcurrentCalls\s*\?\s*fail\(/.test(guard))
    out.push(
      finding(
        'infra/main.bicep',
        'checkedExportBatchSize must fail() when functionMaximumInstanceCount × exportBatchSize > siexMaxConcurrentCalls',
      ),
    );
  const module = main.modules.find((m) => m.symbol === 'functionApp');
  if (getProperty(module?.body, 'params', 'exportBatchSize')?.text !== 'checkedExportBatchSize')
    out.push(finding('infra/main.bicep', 'module functionApp must get exportBatchSize: checkedExportBatchSize'));
  const target = module && moduleTarget(infra, main, module.source);
  const host = target?.vars.get('hostAppSettings');
  if (
    target &&
    (getProperty(host, 'AzureFunctionsJobHost__extensions__queues__batchSize')?.text !== 'string(exportBatchSize)' ||
      stringValue(getProperty(host, 'AzureFunctionsJobHost__extensions__queues__newBatchThreshold')) !== '0')
  )
    out.push(
      finding(
        rel(infra, target.file),
        'hostAppSettings must set the queue batchSize to exportBatchSize and newBatchThreshold to 0',
      ),
    );
  return out;
}
