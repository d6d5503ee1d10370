/**
 * Every Kusto query the deployment carries (the alert rules' infra/monitoring/*.kql and the workbook's queries),
 * analysed offline by Microsoft's Kusto language service against the columns Azure Monitor documents for each table
 * (kql-tables.json): a misspelt table or column, or a syntax error, fails `npm test` instead of an alert that never
 * fires in production.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import '@kusto/language-service-next/bridge.js';
import '@kusto/language-service-next/Kusto.Language.Bridge.js';
import tables from './kql-tables.json';
import { COMMON_FIELDS, EVENT_FIELDS } from '../../shared/log/log-events';

export interface KqlQuery {
  /** Where the query comes from: a file, or the workbook item's name. */
  source: string;
  text: string;
}

interface WorkbookItem {
  name?: string;
  content?: { query?: string };
}

/** The queries of infra/monitoring: one per .kql file, and one per query item of the workbook. */
export function monitoringQueries(infraDir: string): KqlQuery[] {
  const dir = join(infraDir, 'monitoring');
  const out: KqlQuery[] = [];
  for (const name of readdirSync(dir).sort()) {
    const file = join(dir, name);
    if (name.endsWith('.kql')) out.push({ source: `infra/monitoring/${name}`, text: readFileSync(file, 'utf8') });
    if (name.endsWith('.json')) {
      const workbook = JSON.parse(readFileSync(file, 'utf8')) as { items?: WorkbookItem[] };
      for (const item of workbook.items ?? [])
        if (item.content?.query !== undefined)
          out.push({ source: `infra/monitoring/${name}#${item.name ?? '?'}`, text: item.content.query });
    }
  }
  return out;
}

/** The Kusto global state of a Log Analytics workspace holding the documented tables. */
function workspaceState(): Kusto.Language.GlobalState {
  const symbols = Kusto.Language.Symbols;
  const tableSymbols = Object.entries(tables.tables).map(([name, table]) => {
    const schema = Object.entries(table.columns)
      .map(([column, type]) => `['${column}']:${type}`)
      .join(', ');
    return new symbols.TableSymbol.$ctor7(name, `(${schema})`, null);
  });
  const database = new symbols.DatabaseSymbol.ctor('workspace', tableSymbols);
  return Kusto.Language.GlobalState.Default!.WithDatabase(database)!;
}

/** The language service's errors for one query (warnings, e.g. on performance, are not findings). */
export function kqlErrors(text: string, state = workspaceState()): string[] {
  const code = Kusto.Language.KustoCode.ParseAndAnalyze(text, state)!;
  const diagnostics = code.GetDiagnostics()!;
  const errors: string[] = [];
  for (let i = 0; i < diagnostics.Count; i++) {
    const d = diagnostics.getItem(i);
    if (d.Severity === 'Error') errors.push(`${d.Message} (at ${d.Start})`);
  }
  return errors;
}

export function kqlFindings(queries: KqlQuery[]): string[] {
  const state = workspaceState();
  return queries.flatMap((q) => kqlErrors(q.text, state).map((e) => `${q.source}: ${e}`));
}

/**
 * The app's structured events a query reads (`Message startswith '{"event":"<name>"'`, then `Event.<field>` or `Event['<field>']` of
 * the parsed message): each must be an event the app writes, and each field one such an event carries
 * (shared/log/log-events.ts). The Kusto analysis cannot see inside the message, so a misspelt event or field would
 * otherwise only show as an alert that never fires.
 */
export function eventFindings(queries: KqlQuery[]): string[] {
  return queries.flatMap((q) => {
    const names = [...q.text.matchAll(/\{"event":"([^"]*)"/g)].map((m) => m[1]);
    const known = names.filter((n): n is keyof typeof EVENT_FIELDS => n in EVENT_FIELDS);
    const fields = new Set<string>([...COMMON_FIELDS, ...known.flatMap((n) => EVENT_FIELDS[n])]);
    return [
      ...names
        .filter((n) => !(n in EVENT_FIELDS))
        .map((n) => `${q.source}: no event '${n}' in shared/log/log-events.ts`),
      ...[...q.text.matchAll(/\bEvent(?:\.(\w+)|\['(\w+)'\])/g)]
        .map((m) => m[1] ?? m[2])
        .filter((f) => names.length > 0 && !fields.has(f))
        .map((f) => `${q.source}: event ${names.join(', ')} has no field '${f}'`),
    ];
  });
}
