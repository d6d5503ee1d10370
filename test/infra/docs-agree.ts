/**
 * docs/operations.md and the README say what the templates do (issue 36): every alert the templates create is in the
 * operations' Alerts table and nothing else is; every delete lock is in its Locks table and nothing else is; every
 * variable azd maps is in its table of them, and the data accounts' bound is the template's (issue 37 item 2); and the
 * README's always-ready count is the function groups the app registers (functions/index.ts), times the two instances
 * zone redundancy keeps ready in each.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { getProperty, stringValue } from './bicep';
import { Infra, moduleTarget, resourcesOfType } from './checks/model';
import { literalRules } from './checks/operations';

/** The rows of the markdown table that follows a heading's first line matching `after`, by their first cell. */
function tableFirstCells(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) return [];
  const rest = markdown.slice(start + 1);
  const end = rest.slice(3).search(/\n## /);
  const section = end < 0 ? rest : rest.slice(0, end + 3);
  return [...section.matchAll(/^\| ([^|]+?) \|/gm)]
    .map((m) => m[1].trim())
    .filter((cell) => !/^-+$|^alert$|^lock$/.test(cell));
}

/** The names of a cell's `code` spans (`\`name\` (severity 1)` → name). */
const codeName = (cell: string) => /^`([^`]+)`/.exec(cell)?.[1] ?? cell.split(' ')[0];

/** Every alert the alerts module creates, by the name after its prefix. */
function alertNames(infra: Infra): string[] {
  const module = infra.main?.modules.find((m) => m.symbol === 'alerts');
  const file = module && infra.main ? moduleTarget(infra, infra.main, module.source) : undefined;
  if (!file) return [];
  const activity = file.vars.get('activityAlerts');
  const activityNames = (activity?.namedChildren ?? [])
    .filter((n) => n?.type === 'object')
    .map((n) => stringValue(getProperty(n ?? undefined, 'name')) ?? '?');
  return [...literalRules(file).map((r) => r.name), 'availability', ...activityNames].filter(
    (n, i, all) => all.indexOf(n) === i,
  );
}

const lockNames = (infra: Infra) =>
  resourcesOfType(infra, 'Microsoft.Authorization/locks').map(
    ({ resource }) => stringValue(getProperty(resource.body, 'name')) ?? '?',
  );

/** The function groups Flex Consumption scales apart: every HTTP function together, each other function alone. */
export function functionGroups(indexSource: string): number {
  const others = [...indexSource.matchAll(/^app\.(timer|storageQueue|serviceBusQueue|eventHub|cosmosDB)\(/gm)].length;
  return others + 1;
}

export function docsFindings(infra: Infra, operations: string, readme: string, repoRoot: string): string[] {
  const out: string[] = [];
  const alerts = alertNames(infra);
  const documented = tableFirstCells(operations, 'Alerts').map(codeName);
  for (const name of alerts)
    if (!documented.includes(name)) out.push(`docs/operations.md, Alerts: alert ${name} of the templates is missing`);
  for (const name of documented)
    if (name !== 'budget' && !alerts.includes(name))
      out.push(`docs/operations.md, Alerts: ${name} is not an alert of the templates`);

  const locks = lockNames(infra);
  const lockRows = tableFirstCells(operations, 'Locks').map(codeName);
  for (const lock of locks)
    if (!lockRows.includes(lock)) out.push(`docs/operations.md, Locks: lock ${lock} of the templates is missing`);
  for (const lock of lockRows)
    if (!locks.includes(lock)) out.push(`docs/operations.md, Locks: ${lock} is not a lock of the templates`);

  const azd = JSON.parse(fs.readFileSync(path.join(infra.dir, 'main.parameters.json'), 'utf8')) as {
    parameters: Record<string, { value: unknown }>;
  };
  // The first cells of the table of azd's variables: rows whose first cell names one or more `VARIABLES`.
  const variableCells = [...operations.matchAll(/^\| (`[A-Z_]+`(?:, `[A-Z_]+`)*) \|/gm)].map((m) => m[1]);
  for (const [param, { value }] of Object.entries(azd.parameters)) {
    const variable = /^\$\{([A-Z_]+)/.exec(String(value))?.[1];
    if (variable && !variableCells.some((cell) => cell.includes(`\`${variable}\``)))
      out.push(`docs/operations.md: azd variable ${variable} (parameter ${param}) is not documented`);
  }

  // The data accounts' bound, as main.bicep has it (@maxValue of dataAccountCount), in the azd table and the runbook.
  const maxAccounts = /^@maxValue\((\d+)\)$/m.exec(
    infra.main?.params
      .get('dataAccountCount')
      ?.decoratorNodes.map((d) => d.text)
      .join('\n') ?? '',
  )?.[1];
  const dataAccountRow = /^\| `DATA_ACCOUNT_COUNT` \|.*$/m.exec(operations)?.[0] ?? '';
  if (!maxAccounts || !dataAccountRow.includes(`at most ${maxAccounts})`))
    out.push(`docs/operations.md: the DATA_ACCOUNT_COUNT row must say at most ${maxAccounts} (main.bicep's @maxValue)`);
  const runbook = /\n### More data accounts\n[\s\S]*?(?=\n##)/.exec(operations)?.[0] ?? '';
  if (!maxAccounts || !runbook.includes(`at most ${maxAccounts})`))
    out.push(`docs/operations.md, More data accounts: must say at most ${maxAccounts} (main.bicep's @maxValue)`);

  const groups = functionGroups(fs.readFileSync(path.join(repoRoot, 'functions/index.ts'), 'utf8'));
  if (!readme.includes(`2 instances ready in each of the ${groups} function groups`))
    out.push(`README.md: the cost table must count ${groups} function groups (functions/index.ts)`);
  if (!readme.includes(`${groups * 2} instances × 2 GB`))
    out.push(`README.md: the always-ready baseline must count ${groups * 2} instances`);
  return out;
}
