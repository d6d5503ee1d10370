import { INFRA_DIR } from './context';
import { eventFindings, kqlErrors, kqlFindings, monitoringQueries } from './kql';

describe('Kusto queries of the alerts and the workbook', () => {
  const queries = monitoringQueries(INFRA_DIR);

  it('finds every alert query file and every workbook query', () => {
    const sources = queries.map((q) => q.source);
    expect(sources.filter((s) => s.endsWith('.kql')).length).toBeGreaterThanOrEqual(7);
    expect(sources.filter((s) => s.includes('workbook.json#')).length).toBeGreaterThanOrEqual(6);
    expect(sources).toEqual(
      expect.arrayContaining(['infra/monitoring/export-stuck.kql', 'infra/monitoring/export-failed.kql']),
    );
  });

  it("reads only the app's events and the fields they carry", () => {
    expect(eventFindings(queries)).toEqual([]);
    // The job alerts read the job's moves.
    for (const name of ['export-stuck', 'export-failed'])
      expect(queries.find((q) => q.source === `infra/monitoring/${name}.kql`)?.text).toContain('{"event":"job.state"');
  });

  // What a misspelt event or field would look like: the Kusto analysis cannot see inside the message.
  it.each([
    ['an unknown event', `AppTraces | where Message startswith '{"event":"job.status"'`, "no event 'job.status'"],
    [
      'a field the event does not carry',
      `AppTraces | where Message startswith '{"event":"job.state"' | extend Event = parse_json(Message) | where Event.status == 'Fallido'`,
      "has no field 'status'",
    ],
    [
      'a bracketed field the event does not carry',
      `AppTraces | where Message startswith '{"event":"siex.call"' | extend Event = parse_json(Message) | where Event['to'] == 'x'`,
      "has no field 'to'",
    ],
  ])('reports %s', (_what, text, message) => {
    expect(eventFindings([{ source: 'q', text }]).join(' ')).toContain(message);
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
