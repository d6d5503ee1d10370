/**
 * Audit and diagnostics: every resource type with resource logs (LOGGED_TYPES in contract.ts) sends them to the Log
 * Analytics workspace through a diagnostic setting scoped to it; every other type of the templates is listed in
 * UNLOGGED_TYPES with the reason, so a new type forces the question. API Management also logs each request to
 * Application Insights with its managed identity, and no API Management log may carry a key: the headers and the
 * query parameter that carry one are hidden, and no body is logged.
 */
import type { Node } from 'web-tree-sitter';
import { BicepFile, getProperty, literalValue, NOT_LITERAL } from '../bicep';
import { KEY_HEADERS, KEY_QUERY_PARAMS, LOGGED_TYPES, UNLOGGED_TYPES } from './contract';
import { Finding, Infra, mainExpression, rel, resourcesOfType } from './model';

const WORKSPACE = /^monitoring\.outputs\.logAnalyticsWorkspaceId$|^workspace\.id$/;

export function checkDiagnostics(infra: Infra): Finding[] {
  const out: Finding[] = [];
  const settings = resourcesOfType(infra, 'Microsoft.Insights/diagnosticSettings');
  const logged = new Set(LOGGED_TYPES.map((t) => t.toLowerCase()));
  const unlogged = new Set(Object.keys(UNLOGGED_TYPES).map((t) => t.toLowerCase()));
  for (const file of infra.files.values())
    for (const resource of file.resources) {
      if (resource.existing) continue;
      const type = resource.typeAndVersion.split('@')[0] ?? '';
      const at = rel(infra, file.file);
      if (unlogged.has(type.toLowerCase())) continue;
      if (!logged.has(type.toLowerCase())) {
        out.push({
          check: 'diagnostics',
          file: at,
          message: `${resource.symbol}: ${type} is in neither LOGGED_TYPES nor UNLOGGED_TYPES (test/infra/checks/contract.ts): give it a diagnostic setting, or say why it has none`,
        });
        continue;
      }
      const setting = settings.find(
        (s) => s.file === file && getProperty(s.resource.body, 'scope')?.text === resource.symbol,
      );
      if (!setting) {
        out.push({
          check: 'diagnostics',
          file: at,
          message: `${resource.symbol}: ${type} needs a diagnostic setting (scope: ${resource.symbol}) sending its logs to the workspace`,
        });
        continue;
      }
      const props = getProperty(setting.resource.body, 'properties');
      if (!WORKSPACE.test(mainExpression(infra, file, getProperty(props, 'workspaceId'))))
        out.push({
          check: 'diagnostics',
          file: at,
          message: `${setting.resource.symbol}: workspaceId must be the deployment's Log Analytics workspace`,
        });
      if (!sendsLogs(getProperty(props, 'logs'), file))
        out.push({
          check: 'diagnostics',
          file: at,
          message: `${setting.resource.symbol}: logs must enable categoryGroup 'allLogs' (or 'audit')`,
        });
    }
  out.push(...checkApimLogs(infra));
  return out;
}

/**
 * Whether a `logs:` value enables a category group, in a literal array or in a branch of a condition. The group may be a
 * parameter of the file whose every allowed value is one (storage.bicep's queueLogs: allLogs or audit).
 */
function sendsLogs(logs: Node | undefined, file: BicepFile): boolean {
  if (!logs) return false;
  const arrays = logs.type === 'array' ? [logs] : logs.descendantsOfType('array').filter((n): n is Node => !!n);
  const groups = ['allLogs', 'audit'];
  const params = new Map(
    [...file.params.values()]
      .filter((p) => p.allowed?.length && p.allowed.every((v) => groups.includes(String(v))))
      .map((p) => [p.name, p.defaultValue ?? null] as const),
  );
  return arrays.some((array) => {
    const value = literalValue(array, new Map([...params].filter((e): e is [string, Node] => e[1] !== null)));
    return (
      Array.isArray(value) &&
      value.some(
        (entry: Record<string, unknown>) =>
          entry.enabled === true && (entry.categoryGroup === 'allLogs' || entry.categoryGroup === 'audit'),
      )
    );
  });
}

/** API Management's request logs: to Application Insights with the managed identity, never with a key in them. */
function checkApimLogs(infra: Infra): Finding[] {
  const out: Finding[] = [];
  const loggers = resourcesOfType(infra, 'Microsoft.ApiManagement/service/loggers');
  const appInsights = loggers.find(
    ({ resource }) => literalValue(getProperty(resource.body, 'properties', 'loggerType')) === 'applicationInsights',
  );
  if (!appInsights) {
    out.push({ check: 'diagnostics', file: 'infra', message: 'API Management needs an applicationInsights logger' });
  } else {
    const credentials = getProperty(appInsights.resource.body, 'properties', 'credentials');
    if (!getProperty(credentials, 'identityClientId') || getProperty(credentials, 'instrumentationKey'))
      out.push({
        check: 'diagnostics',
        file: rel(infra, appInsights.file.file),
        message: `${appInsights.resource.symbol}: must send with the managed identity (credentials.identityClientId), not an instrumentation key`,
      });
  }
  const diagnostics = resourcesOfType(infra, 'Microsoft.ApiManagement/service/diagnostics');
  if (
    !appInsights ||
    !diagnostics.some(
      ({ resource }) =>
        getProperty(resource.body, 'properties', 'loggerId')?.text === `${appInsights.resource.symbol}.id`,
    )
  )
    out.push({
      check: 'diagnostics',
      file: 'infra',
      message: 'API Management needs a diagnostic that logs requests to its applicationInsights logger',
    });
  for (const { file, resource } of diagnostics) {
    const at = rel(infra, file.file);
    for (const pipeline of ['frontend', 'backend'])
      for (const message of ['request', 'response']) {
        const where = `${resource.symbol}: ${pipeline}.${message}`;
        const log = literalValue(getProperty(resource.body, 'properties', pipeline, message), file.vars);
        if (log === NOT_LITERAL || !log || typeof log !== 'object') {
          out.push({
            check: 'diagnostics',
            file: at,
            message: `${where} must be a literal setting (variables allowed), so what is logged can be read`,
          });
          continue;
        }
        out.push(...checkMessageLog(at, where, log));
      }
  }
  return out;
}

type Masking = { value?: string; mode?: string }[] | undefined;

interface MessageLog {
  headers?: unknown[];
  body?: { bytes?: number };
  dataMasking?: { headers?: Masking; queryParams?: Masking };
}

const masks = (entries: Masking, name: string) =>
  (entries ?? []).some(
    (e) => e.value?.toLowerCase() === name.toLowerCase() && (e.mode === 'Hide' || e.mode === 'Mask'),
  );

function checkMessageLog(at: string, where: string, log: MessageLog): Finding[] {
  const out: Finding[] = [];
  const lower = (xs: unknown[] | undefined) => (xs ?? []).map((x) => String(x).toLowerCase());
  const logged = lower(log.headers);
  for (const header of KEY_HEADERS)
    if (logged.includes(header.toLowerCase()))
      out.push({ check: 'diagnostics', file: at, message: `${where} logs the header ${header}, which carries a key` });
  if ((log.body?.bytes ?? 0) !== 0)
    out.push({ check: 'diagnostics', file: at, message: `${where} must log no body (body.bytes 0)` });
  for (const header of KEY_HEADERS)
    if (!masks(log.dataMasking?.headers, header))
      out.push({ check: 'diagnostics', file: at, message: `${where} must mask the header ${header} (dataMasking)` });
  for (const query of KEY_QUERY_PARAMS)
    if (!masks(log.dataMasking?.queryParams, query))
      out.push({
        check: 'diagnostics',
        file: at,
        message: `${where} must mask the query parameter ${query} (dataMasking), or a key sent in a URL is logged`,
      });
  return out;
}
