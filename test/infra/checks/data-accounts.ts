/**
 * The data accounts (issue 37 item 2): main.bicep's dataAccountCount deploys that many, and each is what the first is.
 * The templates are evaluated (evaluate.ts) for one account, two, and the most the parameter allows; for each count:
 * - one module declaration, looped, deploys every account (a second declaration could drift from the first), and its
 *   parameters but the name and the queues are the same for every account (so each has the first's replication, TLS,
 *   shared keys off, network rules, diagnostics, operator role and lock; storage.bicep's own checks say what those are);
 * - the first account keeps the name the one data account always had, every name is a valid and distinct account name,
 *   and the queues are the first's only;
 * - each account has a private endpoint for its tables (network.bicep), the first also one for its queues;
 * - the app's identity holds Storage Table Data Contributor on each: the records it keeps there, and its nightly backup
 *   (functions/table-backup.ts, the app's own: no Azure-side backup), which reads them with that role;
 * - the app setting STORAGE_ACCOUNTS lists every account's table endpoint in order, and AzureWebJobsStorage__accountName
 *   is the first.
 * And the count is kept: azd takes it from DATA_ACCOUNT_COUNT and keeps it (an output of that name), production's
 * parameter file writes it, since a lower count would leave the farms of the dropped accounts unreachable.
 */
import { BicepFile, getProperty } from '../bicep';
import { Evaluator, NotEvaluable, text, Value } from '../evaluate';
import { APP_SETTINGS_PARAM } from './app-settings';
import { parameterValues } from './backups';
import { PRINCIPALS, ROLE_IDS } from './contract';
import { Finding, Infra, moduleTarget, rel, roleAssignments } from './model';
import { PARAMETER_FILES } from './parameters';

const AT_MAIN = 'infra/main.bicep';
const PARAM = 'dataAccountCount';
/** A stand-in for uniqueString(...): 13 lowercase letters and digits, as uniqueString returns. */
const TOKEN = 'abcdefghij123';
/** The name the one data account has always had (main.bicep, before dataAccountCount). */
const FIRST_NAME = `st${TOKEN}`;
const QUEUES = ['export-jobs', 'export-jobs-poison'];
const ACCOUNT_TYPE = 'Microsoft.Storage/storageAccounts';

function finding(file: string, message: string): Finding {
  return { check: 'data-accounts', file, message };
}

export function checkDataAccounts(infra: Infra): Finding[] {
  const main = infra.main;
  if (!main) return [];
  const param = main.params.get(PARAM);
  if (!param) return [finding(AT_MAIN, `parameter ${PARAM} (how many data accounts) is missing`)];
  const out: Finding[] = [];
  const bound = (name: string) =>
    Number(
      param.decoratorNodes.map((d) => new RegExp(`^@${name}\\((\\d+)\\)$`).exec(d.text)?.[1]).find((n) => n) ?? NaN,
    );
  const [min, max] = [bound('minValue'), bound('maxValue')];
  if (param.type !== 'int' || min !== 1 || !(max >= 1))
    out.push(finding(AT_MAIN, `${PARAM} must be an int with @minValue(1) and a @maxValue`));
  if (param.defaultValue?.text !== '1')
    out.push(finding(AT_MAIN, `${PARAM} must default to 1: an existing deployment keeps its one account`));
  if (out.length > 0) return out;
  out.push(...checkCountKept(infra, main));
  for (const count of [...new Set([1, 2, max])]) out.push(...checkCount(infra, main, count));
  return out;
}

/** azd takes the count from its environment and keeps it; production's parameter file writes it. */
function checkCountKept(infra: Infra, main: BicepFile): Finding[] {
  const out: Finding[] = [];
  const azd = parameterValues(infra, PARAMETER_FILES.azd);
  if (azd && !/^\$\{DATA_ACCOUNT_COUNT(=[^}]*)?\}$/.test(typeof azd[PARAM] === 'string' ? azd[PARAM] : ''))
    out.push(finding(`infra/${PARAMETER_FILES.azd}`, `${PARAM} must come from azd's DATA_ACCOUNT_COUNT`));
  if (main.outputs.get('DATA_ACCOUNT_COUNT')?.value.text !== PARAM)
    out.push(
      finding(
        AT_MAIN,
        `output DATA_ACCOUNT_COUNT must be ${PARAM}: azd keeps it, so a later provision never lists fewer accounts than the farms are in`,
      ),
    );
  const prod = parameterValues(infra, PARAMETER_FILES.prod);
  if (prod && typeof prod[PARAM] !== 'number')
    out.push(
      finding(`infra/${PARAMETER_FILES.prod}`, `${PARAM} must be written: production's count, only ever raised`),
    );
  return out;
}

function checkCount(infra: Infra, main: BicepFile, count: number): Finding[] {
  const at = (file: BicepFile) => rel(infra, file.file);
  const when = `with ${PARAM} ${count}`;
  const storageFile = target(infra, main, 'storage');
  if (!storageFile) return [finding(AT_MAIN, 'module storage (the data accounts) is missing')];
  const declarations = main.modules.filter((m) => moduleTarget(infra, main, m.source) === storageFile);
  if (declarations.length !== 1)
    return [
      finding(
        AT_MAIN,
        `${declarations.length} module declarations deploy ${at(storageFile)}: every data account must come from one, looped, so none differs from the first`,
      ),
    ];
  const [module] = declarations;
  const loop = module.node.namedChildren.at(-1);
  if (loop?.type !== 'for_statement')
    return [finding(AT_MAIN, `module ${module.symbol} must be looped over the ${PARAM} data accounts`)];
  const evaluator = new Evaluator(main, { [PARAM]: count, resourceToken: TOKEN, queueNames: QUEUES });
  try {
    const iterations = evaluator.iterations(loop);
    const out: Finding[] = [];
    if (iterations.length !== count)
      out.push(finding(AT_MAIN, `module ${module.symbol} deploys ${iterations.length} accounts ${when}`));
    const loopVariables = Object.keys(iterations[0]?.scope ?? {});
    const accounts = iterations.map(({ scope, body }) => ({
      deployment: evaluator.evaluate(getProperty(body, 'name'), scope),
      name: evaluator.evaluate(getProperty(body, 'params', 'name'), scope),
      queues: evaluator.evaluate(getProperty(body, 'params', 'queueNames'), scope),
    }));
    const names = accounts.map((a) => text(a.name));
    out.push(...checkNames(module.symbol, names, accounts, when));
    // Every other parameter the same for each account: it names no loop variable.
    const params = getProperty(iterations[0]?.body, 'params');
    for (const p of params?.namedChildren.filter((n) => n.type === 'object_property') ?? []) {
      const key = p.namedChildren[0]?.text ?? '';
      if (key === 'name' || key === 'queueNames') continue;
      const named = p
        .descendantsOfType('identifier')
        .map((id) => id?.text ?? '')
        .find((id) => loopVariables.includes(id));
      if (named)
        out.push(
          finding(
            AT_MAIN,
            `module ${module.symbol}: ${key} differs between the data accounts (it names the loop's ${named}): every account must have the first's`,
          ),
        );
    }
    // The module's outputs, as storage.bicep gives them: each account's name.
    const storage: Value = names.map((name) => ({ outputs: { name } }));
    const withModules = new Evaluator(main, {
      [PARAM]: count,
      resourceToken: TOKEN,
      queueNames: QUEUES,
      [module.symbol]: storage,
    });
    out.push(...checkEndpoints(infra, main, withModules, names, when));
    out.push(...checkTableRoles(infra, main, withModules, names, when));
    out.push(...checkSetting(main, withModules, names, when));
    return out;
  } catch (e) {
    if (e instanceof NotEvaluable)
      return [finding(AT_MAIN, `the data accounts cannot be evaluated offline ${when}: ${e.message}`)];
    throw e;
  }
}

function checkNames(
  symbol: string,
  names: string[],
  accounts: { deployment: Value; queues: Value }[],
  when: string,
): Finding[] {
  const out: Finding[] = [];
  if (names[0] !== FIRST_NAME)
    out.push(
      finding(
        AT_MAIN,
        `the first data account must keep the name it always had, st\${resourceToken}, is ${names[0]} ${when}`,
      ),
    );
  for (const name of names)
    if (!/^[a-z0-9]{3,24}$/.test(name))
      out.push(finding(AT_MAIN, `data account name ${name} is not 3 to 24 lowercase letters and digits ${when}`));
  const twice = (xs: string[]) => xs.filter((x, i) => xs.indexOf(x) !== i);
  for (const name of twice(names)) out.push(finding(AT_MAIN, `data account name ${name} is used twice ${when}`));
  for (const name of twice(accounts.map((a) => JSON.stringify(a.deployment))))
    out.push(finding(AT_MAIN, `module ${symbol}: deployment name ${name} is used twice ${when}`));
  accounts.forEach((a, i) => {
    const expected = i === 0 ? QUEUES : [];
    if (JSON.stringify(a.queues) !== JSON.stringify(expected))
      out.push(
        finding(
          AT_MAIN,
          `data account ${names[i]} gets queues ${JSON.stringify(a.queues)} ${when}: the queues are the first account's only`,
        ),
      );
  });
  return out;
}

/** Each account's tables, and the first's queues, behind a private endpoint of network.bicep. */
function checkEndpoints(infra: Infra, main: BicepFile, evaluator: Evaluator, names: string[], when: string): Finding[] {
  const module = main.modules.find((m) => m.symbol === 'network');
  const file = target(infra, main, 'network');
  if (!module || !file) return [finding(AT_MAIN, 'module network (the private endpoints) is missing')];
  const passed = evaluator.evaluate(getProperty(module.body, 'params', 'dataAccountNames'));
  const existing = Object.fromEntries(file.resources.map((r) => [r.symbol, { id: `${r.symbol}.id`, name: r.symbol }]));
  const network = new Evaluator(file, {
    ...existing,
    dataAccountNames: passed,
    hostAccountName: 'host',
    backupAccountName: 'backup',
    keyVaultName: 'vault',
  });
  const endpoints = network.evaluate(file.vars.get('endpoints'));
  const targets = (group: string) =>
    (Array.isArray(endpoints) ? endpoints : [])
      .filter((e) => isRecord(e) && e.group === group)
      .map((e) => (isRecord(e) ? text(e.target) : ''));
  const out: Finding[] = [];
  for (const name of names)
    if (!targets('table').includes(`${ACCOUNT_TYPE}/${name}`))
      out.push(finding(rel(infra, file.file), `data account ${name} has no private endpoint for its tables ${when}`));
  if (JSON.stringify(targets('queue')) !== JSON.stringify([`${ACCOUNT_TYPE}/${names[0]}`]))
    out.push(finding(rel(infra, file.file), `the queue endpoint must be the first data account's only ${when}`));
  return out;
}

/** The app's Storage Table Data Contributor on each account: its records there, and the nightly backup's reads. */
function checkTableRoles(
  infra: Infra,
  main: BicepFile,
  evaluator: Evaluator,
  names: string[],
  when: string,
): Finding[] {
  const module = main.modules.find((m) => m.symbol === 'functionApp');
  const file = target(infra, main, 'functionApp');
  if (!module || !file) return [finding(AT_MAIN, 'module functionApp is missing')];
  const bindings: Record<string, Value> = {};
  for (const [param] of file.params) {
    const given = getProperty(module.body, 'params', param);
    if (given && file.params.get(param)?.type === 'array') bindings[param] = evaluator.evaluate(given);
  }
  // The existing resources the assignments are scoped to, each by its name.
  const fileEvaluator = new Evaluator(file, bindings);
  for (const r of file.resources.filter((r) => r.existing)) {
    const loop = r.node.namedChildren.at(-1);
    bindings[r.symbol] =
      loop?.type === 'for_statement'
        ? fileEvaluator
            .iterations(loop)
            .map((it) => ({ name: fileEvaluator.evaluate(getProperty(it.body, 'name'), it.scope) }))
        : { name: getProperty(r.body, 'name')?.text ?? r.symbol };
  }
  const covered = new Set<string>();
  for (const a of roleAssignments(infra)) {
    if (a.file !== file || a.roleId !== ROLE_IDS.storageTableDataContributor || !PRINCIPALS.function.test(a.principal))
      continue;
    const resource = file.resources.find((r) => r.symbol === a.symbol);
    const loop = resource?.node.namedChildren.at(-1);
    const iterations =
      loop?.type === 'for_statement'
        ? fileEvaluator.iterations(loop)
        : resource?.body
          ? [{ scope: {}, body: resource.body }]
          : [];
    for (const it of iterations) {
      const scope = fileEvaluator.evaluate(getProperty(it.body, 'scope'), it.scope);
      if (isRecord(scope)) covered.add(text(scope.name));
    }
  }
  return names
    .filter((name) => !covered.has(name))
    .map((name) =>
      finding(
        rel(infra, file.file),
        `data account ${name}: the app's identity lacks Storage Table Data Contributor ${when}, so neither the app nor its nightly backup reaches it`,
      ),
    );
}

/** STORAGE_ACCOUNTS: every account's table endpoint, in order; the host's account the first. */
function checkSetting(main: BicepFile, evaluator: Evaluator, names: string[], when: string): Finding[] {
  const module = main.modules.find((m) => m.symbol === 'functionApp');
  const settings = getProperty(module?.body, 'params', APP_SETTINGS_PARAM);
  const setting = getProperty(settings, 'STORAGE_ACCOUNTS');
  const out: Finding[] = [];
  const expected = names.map((n) => `https://${n}.table.core.windows.net`).join(',');
  const value = setting ? evaluator.evaluate(setting) : undefined;
  if (value !== expected)
    out.push(
      finding(AT_MAIN, `app setting STORAGE_ACCOUNTS must be ${expected} ${when}, is ${JSON.stringify(value ?? null)}`),
    );
  const first = getProperty(settings, 'AzureWebJobsStorage__accountName');
  if (!first || evaluator.evaluate(first) !== names[0])
    out.push(finding(AT_MAIN, `app setting AzureWebJobsStorage__accountName must be the first data account ${when}`));
  return out;
}

function target(infra: Infra, main: BicepFile, symbol: string): BicepFile | undefined {
  const module = main.modules.find((m) => m.symbol === symbol);
  return module && moduleTarget(infra, main, module.source);
}

function isRecord(v: Value): v is { [key: string]: Value } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
