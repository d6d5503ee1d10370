/**
 * The TypeScript client's own behaviour, against a fetch that answers as the gateway would and a clock the test moves:
 * what its errors say, what a connection that never comes up raises, and how `waitForJob` reports, stops and gives up.
 */
import { inspect } from 'node:util';
import {
  createSiexClient,
  GatewayUnreachableError,
  JobAsync,
  JobWaitTimeoutError,
  orThrow,
  Problem,
  ProblemError,
} from '../../clients/typescript/src';
import { ManualClock } from '../helpers/manual-clock';

const violation = (i: number) => ({ code: 'REQUIRED' as const, path: `body.f${i}`, message: `f${i} is required` });
const problem = (count: number, errorCount?: number): Problem => ({
  type: 'about:blank',
  title: 'Bad Request',
  status: 400,
  detail: 'The request body is not valid',
  errors: Array.from({ length: count }, (_, i) => violation(i)),
  ...(errorCount === undefined ? {} : { errorCount }),
});

describe('ProblemError', () => {
  it('lists every violation with its code, path and message when there are 10 or fewer', () => {
    const e = new ProblemError(400, problem(2));
    expect(e.message).toBe(
      '400 Bad Request: The request body is not valid\n' +
        '  - REQUIRED at body.f0: f0 is required\n' +
        '  - REQUIRED at body.f1: f1 is required',
    );
  });

  it('lists the first 10 and counts the rest, the ones the gateway did not list included', () => {
    const lines = new ProblemError(400, problem(100, 250)).message.split('\n');
    expect(lines).toHaveLength(12);
    expect(lines[10]).toBe('  - REQUIRED at body.f9: f9 is required');
    expect(lines[11]).toBe('  ... 240 more (250 violations in all)');
  });

  it('shows every violation whole in toJSON and util.inspect (an uncaught error prints through inspect)', () => {
    const e = new ProblemError(400, problem(12));
    const json = JSON.parse(JSON.stringify(e)) as { status: number; problem: Problem };
    expect(json.status).toBe(400);
    expect(json.problem.errors).toEqual(problem(12).errors);
    const printed = inspect(e);
    expect(printed).toContain("path: 'body.f11'");
    expect(printed).not.toContain('[Object]');
  });

  it('says the status alone when the answer had no problem details', () => {
    expect(new ProblemError(502, undefined).message).toBe('HTTP 502');
  });
});

const job = (id: string, name: JobAsync['status']['name'], percentage: number): JobAsync => ({
  type: 'JobAsync',
  id: '7',
  inidate: '01-06-2026 10:00:00',
  status: { type: 'JobStatus', id, name },
  percentage,
  error: null,
});
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** A gateway whose job goes through `statuses`, one per status read, then stays at the last. */
function gateway(statuses: JobAsync[]) {
  const reads: string[] = [];
  const fetch = (input: Request | string | URL) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    reads.push(url.pathname);
    if (url.pathname.endsWith('/jobresult'))
      return Promise.resolve(json({ data: [{ result: 'ok', id: 1 }], error: [] }));
    const reply = statuses[Math.min(reads.filter((p) => p.endsWith('/jobstatus')).length - 1, statuses.length - 1)];
    return Promise.resolve(json(reply));
  };
  return { fetch: fetch, reads };
}

const clientOf = (fetch: typeof globalThis.fetch, clock: ManualClock) =>
  createSiexClient({ baseUrl: 'http://gateway.test', sidKey: 's', apiKey: 'a', fetch, clock });

/** Lets the client's promises run to their next wait on the clock. */
const turn = () => new Promise((r) => setImmediate(r));

describe('waitForJob', () => {
  it('reports every status read to onProgress, then returns the settled job and its result', async () => {
    const clock = new ManualClock(0);
    const { fetch, reads } = gateway([
      job('1', 'Iniciando', 0),
      job('2', 'EnProceso', 50),
      job('3', 'FinalizadoCompleto', 100),
    ]);
    const seen: number[] = [];
    const waiting = clientOf(fetch, clock).waitForJob(7, {
      intervalMs: 100,
      onProgress: (j) => seen.push(j.percentage),
    });
    await turn();
    await clock.advance(100);
    await turn();
    await clock.advance(150);
    const { job: settled, result } = await waiting;
    expect(settled.status.name).toBe('FinalizadoCompleto');
    expect(result.data).toEqual([{ result: 'ok', id: 1 }]);
    expect(seen).toEqual([0, 50, 100]);
    expect(reads.map((p) => p.split('/').pop())).toEqual(['jobstatus', 'jobstatus', 'jobstatus', 'jobresult']);
  });

  it('gives up after timeoutMs with the last status it read', async () => {
    const clock = new ManualClock(0);
    const { fetch } = gateway([job('2', 'EnProceso', 40)]);
    const waiting = clientOf(fetch, clock)
      .waitForJob(7, { intervalMs: 1000, maxIntervalMs: 1000, timeoutMs: 2500 })
      .catch((e: unknown) => e);
    for (let i = 0; i < 3; i++) {
      await turn();
      await clock.advance(1000);
    }
    const error = await waiting;
    expect(error).toBeInstanceOf(JobWaitTimeoutError);
    expect((error as JobWaitTimeoutError).job.percentage).toBe(40);
    expect(clock.now()).toBeLessThanOrEqual(3000);
  });

  it('stops as soon as its signal aborts, with the signal reason, reading nothing more', async () => {
    const clock = new ManualClock(0);
    const { fetch, reads } = gateway([job('2', 'EnProceso', 10)]);
    const stop = new AbortController();
    const waiting = clientOf(fetch, clock)
      .waitForJob(7, { intervalMs: 1000, signal: stop.signal })
      .catch((e: unknown) => e);
    await turn();
    stop.abort(new Error('the operator closed the screen'));
    expect(await waiting).toEqual(new Error('the operator closed the screen'));
    await clock.advance(60_000);
    expect(reads).toEqual(['/api-service/v1/entities/jobstatus']);
    expect(clock.pending).toBe(0);
  });
});

describe('a gateway that cannot be reached', () => {
  it('raises GatewayUnreachableError with the last failure as its cause, after every try', async () => {
    const clock = new ManualClock(0);
    let tries = 0;
    const refused = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:1') });
    const fetch = (() => {
      tries++;
      return Promise.reject(refused);
    }) as typeof globalThis.fetch;
    const siex = createSiexClient({
      baseUrl: 'http://gateway.test',
      sidKey: 's',
      apiKey: 'a',
      fetch,
      clock,
      retry: { attempts: 3, baseDelayMs: 100, maxDelayMs: 100 },
    });
    const call = orThrow(siex.api.GET('/v1/siex/farms', { params: { query: { rea: 'x', year: 2026 } } })).catch(
      (e: unknown) => e,
    );
    for (let i = 0; i < 3; i++) {
      await turn();
      await clock.advance(100);
    }
    const error = await call;
    expect(error).toBeInstanceOf(GatewayUnreachableError);
    expect((error as GatewayUnreachableError).cause).toBe(refused);
    expect((error as Error).message).toBe(
      'GET http://gateway.test/v1/siex/farms?rea=x&year=2026: the gateway could not be reached after 3 tries (fetch failed)',
    );
    expect(tries).toBe(3);
  });
});
