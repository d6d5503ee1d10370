/**
 * Observability that does not lie (issue 36, item 6):
 * - M6: alerts on storage throttling, queue depth (the queue service's metrics exported to the workspace), poison
 *   messages, SIEX unreachable (a probe), a missing certificate-check run, and Azure's Service Health;
 * - M7: the app's traces and exceptions never sampled (host.json), so an alert on an event sees every one;
 * - M8: no log rule fails a first provision on a table no data has reached yet (skipQueryValidation);
 * - thresholds: one failed export job fires, one error line does not;
 * - L1: the availability test calls GET /v1/health with the key of a subscription to a product of that one
 *   operation, a key the provision renews, and no SID key.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Node } from 'web-tree-sitter';
import { BicepFile, getProperty, literalValue, stringValue } from '../bicep';
import { MONITOR } from './contract';
import { Finding, Infra, loadedFile, moduleTarget, rel, resourcesOfType } from './model';
import { literalRules } from './operations';

function finding(file: string, message: string): Finding {
  return { check: 'monitoring', file, message };
}

/** Each alert the issue asks for: its rule's name, and what its query must read. */
const REQUIRED_RULES: { name: string; what: string; reads: RegExp }[] = [
  { name: 'storage-throttling', what: 'storage throttling', reads: /StorageTableLogs|StorageQueueLogs/ },
  { name: 'queue-depth', what: 'queue depth', reads: /QueueMessageCount/ },
  // Both queues' poison: the export's function, and the webhook deliveries the sweeper finds there.
  {
    name: 'poison-messages',
    what: 'poison messages (export and webhook)',
    reads: /^(?=[\s\S]*(exportPoison|export-jobs-poison))(?=[\s\S]*"event":"webhook\.poisoned")/,
  },
  { name: 'siex-unreachable', what: 'SIEX unreachable (a probe)', reads: /"event":"siex\.probe"/ },
  { name: 'certificate-check-missing', what: 'a missing certificate-check run', reads: /siexCertificateCheck/ },
];

export function checkMonitoring(infra: Infra, hostJsonFile: string): Finding[] {
  const main = infra.main;
  const alerts = main?.modules.find((m) => m.symbol === 'alerts');
  const file = alerts && main ? moduleTarget(infra, main, alerts.source) : undefined;
  if (!main || !file) return [];
  return [
    ...checkRequiredAlerts(infra, file),
    ...checkQueueMetrics(infra),
    ...checkSampling(hostJsonFile),
    ...checkQueryValidation(infra),
    ...checkThresholds(infra, file),
    ...checkAvailabilityTest(infra, file),
  ];
}

/** M6: each alert is a rule whose query reads what the alert is about, and Service Health an activity-log alert. */
function checkRequiredAlerts(infra: Infra, file: BicepFile): Finding[] {
  const out: Finding[] = [];
  const at = rel(infra, file.file);
  const rules = new Map(literalRules(file).map((r) => [r.name, r]));
  for (const required of REQUIRED_RULES) {
    const rule = rules.get(required.name);
    const query = /loadTextContent\('([^']+)'\)/.exec(rule?.query ?? '')?.[1];
    const text = query ? readIfThere(path.resolve(path.dirname(file.file), query)) : '';
    if (!required.reads.test(text))
      out.push(
        finding(at, `an alert on ${required.what} (rule ${required.name}) is missing, or its query does not read it`),
      );
  }
  const serviceHealth = [...file.vars.values(), ...file.resources.map((r) => r.node)].some((n) =>
    /field: 'category'\s*\n\s*equals: 'ServiceHealth'/.test(n.text),
  );
  const activity = file.resources.some((r) => r.typeAndVersion.startsWith('Microsoft.Insights/activityLogAlerts@'));
  if (!activity || !serviceHealth)
    out.push(finding(at, 'an activity-log alert on Service Health (category ServiceHealth) is missing'));
  return out;
}

function readIfThere(file: string): string {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
}

/** M6: the data account's queue service sends its metrics (QueueMessageCount is a Capacity metric) to the workspace. */
function checkQueueMetrics(infra: Infra): Finding[] {
  const storage = infra.main?.modules.find((m) => m.symbol === 'storage');
  const file = storage && infra.main ? moduleTarget(infra, infra.main, storage.source) : undefined;
  if (!file) return [];
  const queueService = file.resources.find((r) =>
    r.typeAndVersion.startsWith('Microsoft.Storage/storageAccounts/queueServices@'),
  );
  const setting = file.resources.find(
    (r) =>
      r.typeAndVersion.startsWith('Microsoft.Insights/diagnosticSettings@') &&
      getProperty(r.body, 'scope')?.text === queueService?.symbol,
  );
  const metrics = literalValue(getProperty(setting?.body, 'properties', 'metrics'), file.vars);
  const exported =
    Array.isArray(metrics) &&
    metrics.some(
      (m: { category?: string; enabled?: boolean }) =>
        m.enabled === true && /Capacity|AllMetrics/.test(m.category ?? ''),
    );
  return exported
    ? []
    : [
        finding(
          rel(infra, file.file),
          "the queue service's diagnostic setting must send its Capacity metrics (QueueMessageCount) to the workspace: the queue-depth alert and the workbook read them",
        ),
      ];
}

/** M7: requests, exceptions and traces are never sampled: the job, SIEX and backup events are traces. */
function checkSampling(hostJsonFile: string): Finding[] {
  const file = path.basename(hostJsonFile);
  let host: {
    logging?: { applicationInsights?: { samplingSettings?: { isEnabled?: boolean; excludedTypes?: string } } };
  };
  try {
    host = JSON.parse(fs.readFileSync(hostJsonFile, 'utf8'));
  } catch (e) {
    return [finding(file, `unreadable: ${(e as Error).message}`)];
  }
  const sampling = host.logging?.applicationInsights?.samplingSettings;
  if (!sampling || sampling.isEnabled === false) return [];
  const excluded = (sampling.excludedTypes ?? '').split(';').map((t) => t.trim());
  const missing = ['Request', 'Exception', 'Trace'].filter((t) => !excluded.includes(t));
  return missing.length === 0
    ? []
    : [
        finding(
          file,
          `logging.applicationInsights.samplingSettings.excludedTypes must exclude ${missing.join(', ')} from sampling: the alerts read every job, SIEX and backup event`,
        ),
      ];
}

/** M8: every log rule skips Azure's query validation (a table with no data yet fails a first provision otherwise). */
function checkQueryValidation(infra: Infra): Finding[] {
  return resourcesOfType(infra, 'Microsoft.Insights/scheduledQueryRules')
    .filter(({ resource }) => literalValue(getProperty(resource.body, 'properties', 'skipQueryValidation')) !== true)
    .map(({ file, resource }) =>
      finding(
        rel(infra, file.file),
        `${resource.symbol}: properties.skipQueryValidation must be true (the queries are analysed offline, test/infra/kql.test.ts)`,
      ),
    );
}

/** The rule's threshold as a number: a literal, or a parameter of the file with a literal default. */
function thresholdOf(file: BicepFile, rule: Node | undefined): number | undefined {
  const node = getProperty(rule, 'threshold');
  const value = node?.type === 'identifier' ? file.params.get(node.text)?.defaultValue : node;
  const n = literalValue(value);
  return typeof n === 'number' ? n : undefined;
}

/** One failed job fires (count > 0); one error line does not (count > some number). */
function checkThresholds(infra: Infra, file: BicepFile): Finding[] {
  const out: Finding[] = [];
  const at = rel(infra, file.file);
  const rules = file.vars.get('rules');
  const byName = (name: string) =>
    rules?.namedChildren.find((n) => n?.type === 'object' && stringValue(getProperty(n, 'name')) === name) ?? undefined;
  if (thresholdOf(file, byName('export-failed')) !== 0)
    out.push(finding(at, 'rule export-failed must fire on one failed job: threshold 0 (more than none)'));
  const errors = thresholdOf(file, byName('function-errors'));
  if (errors === undefined || errors < 1)
    out.push(finding(at, 'rule function-errors must not fire on every error line: a threshold of 1 or more'));
  return out;
}

/** L1: the availability test reaches GET /v1/health alone, with a key the provision renews. */
function checkAvailabilityTest(infra: Infra, file: BicepFile): Finding[] {
  const out: Finding[] = [];
  const at = rel(infra, file.file);
  const [test] = file.resources.filter((r) => r.typeAndVersion.startsWith('Microsoft.Insights/webtests@'));
  const request = getProperty(test?.body, 'properties', 'Request');
  const url = getProperty(request, 'RequestUrl')?.text ?? '';
  const main = infra.main!;
  const alertsModule = main.modules.find((m) => m.symbol === 'alerts');
  const healthPath = getProperty(alertsModule?.body, 'params', 'healthPath')?.text ?? '';
  if (!/v1\/health/.test(url) && !(/healthPath/.test(url) && /healthPath/.test(healthPath)))
    out.push(
      finding(
        at,
        'the availability test must call GET /v1/health (tables, queues, Key Vault references), not a static document',
      ),
    );
  if (/Ocp-Apim-Sid-Key/.test(getProperty(request, 'Headers')?.text ?? ''))
    out.push(finding(at, 'the availability test sends no SID key: it is no client of the gateway'));
  // The subscription it uses: to a product of one API of one operation, GET /v1/health.
  const subscriptions = resourcesOfType(infra, 'Microsoft.ApiManagement/service/subscriptions').filter(
    ({ resource }) => !resource.existing,
  );
  const monitor = subscriptions.find(
    ({ resource }) => stringValue(getProperty(resource.body, 'name')) === MONITOR.product,
  );
  const apimFile = monitor?.file;
  const apimAt = apimFile ? rel(infra, apimFile.file) : 'infra/modules/apim.bicep';
  const scope = getProperty(monitor?.resource.body, 'properties', 'scope')?.text ?? '';
  const product = apimFile?.resources.find(
    (r) =>
      r.typeAndVersion.startsWith('Microsoft.ApiManagement/service/products@') &&
      (scope.includes(`${r.symbol}.name`) || scope.includes(`/products/${MONITOR.product}`)) &&
      stringValue(getProperty(r.body, 'name')) === MONITOR.product,
  );
  if (!monitor || !product)
    out.push(
      finding(apimAt, `the availability test's subscription must be scoped to the product '${MONITOR.product}'`),
    );
  const links = resourcesOfType(infra, 'Microsoft.ApiManagement/service/products/apis').filter(
    ({ resource }) => getProperty(resource.body, 'parent')?.text === product?.symbol,
  );
  const api = apimFile?.resources.find(
    (r) =>
      r.typeAndVersion.startsWith('Microsoft.ApiManagement/service/apis@') &&
      links.some(({ resource }) => getProperty(resource.body, 'name')?.text === `${r.symbol}.name`),
  );
  const operations = api
    ? resourcesOfType(infra, 'Microsoft.ApiManagement/service/apis/operations').filter(
        ({ resource }) => getProperty(resource.body, 'parent')?.text === api.symbol,
      )
    : [];
  const [operation] = operations;
  const props = getProperty(operation?.resource.body, 'properties');
  if (
    links.length !== 1 ||
    !api ||
    loadedFile(apimFile!, getProperty(api.body, 'properties', 'value')) !== undefined ||
    operations.length !== 1 ||
    stringValue(getProperty(props, 'method')) !== MONITOR.method ||
    stringValue(getProperty(props, 'urlTemplate')) !== MONITOR.urlTemplate
  )
    out.push(
      finding(
        apimAt,
        `the product '${MONITOR.product}' must hold one API of one operation, ${MONITOR.method} ${MONITOR.urlTemplate}`,
      ),
    );
  // Its key: set from a @secure() parameter main.bicep renews at each provision (newGuid()).
  const key = getProperty(monitor?.resource.body, 'properties', 'primaryKey');
  const param = key?.type === 'identifier' ? apimFile?.params.get(key.text) : undefined;
  const passed = param && getProperty(main.modules.find((m) => m.symbol === 'apim')?.body, 'params', param.name)?.text;
  const source = passed ? main.params.get(passed) : undefined;
  if (
    !param?.decorators.includes('secure') ||
    !source?.decorators.includes('secure') ||
    !/newGuid\(\)/.test(source.defaultValue?.text ?? '')
  )
    out.push(
      finding(
        apimAt,
        "the availability subscription's primaryKey must be a @secure() parameter that main.bicep fills with newGuid() by default: a key renewed at each provision",
      ),
    );
  return out;
}
