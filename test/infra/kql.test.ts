import { INFRA_DIR } from './context';
import { kqlErrors, kqlFindings, monitoringQueries } from './kql';

describe('Kusto queries of the alerts and the workbook', () => {
  const queries = monitoringQueries(INFRA_DIR);

  it('finds every alert query file and every workbook query', () => {
    const sources = queries.map((q) => q.source);
    expect(sources.filter((s) => s.endsWith('.kql')).length).toBeGreaterThanOrEqual(7);
    expect(sources.filter((s) => s.includes('workbook.json#')).length).toBeGreaterThanOrEqual(6);
  });

  it('parses and binds every query against the documented tables, with no unknown table or column', () => {
    expect(kqlFindings(queries)).toEqual([]);
  });

  // The analysis bites: what a typo in a query would look like.
  it.each([
    ['an unknown table', 'AppRequestz | count', "'AppRequestz'"],
    ['an unknown column', 'AppRequests | where ResultKode == "500"', "'ResultKode'"],
    ['a column of another table', 'AppTraces | where DurationMs > 1', "'DurationMs'"],
    ['a syntax error', 'AppRequests | where', ''],
  ])('reports %s', (_what, query, names) => {
    const errors = kqlErrors(query);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.join(' ')).toContain(names);
  });
});
