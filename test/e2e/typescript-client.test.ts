import { createSiexClient, orThrow, ProblemError, SiexClient } from '../../clients/typescript/src';
import { ExportFarm, exportFarm, SIEX_FIELDS } from '../helpers/export-stack';
import { FaultProxy, startFaultProxy } from '../helpers/fault-proxy';
import { gatewayUrl } from '../helpers/http';
import { body } from '../helpers/phyto-stack';
import { CAMPAIGN } from '../helpers/dataset';

/**
 * The README flow through the TypeScript client package, as an ERP would write it, against the local stack behind a
 * proxy that injects the faults the client must ride out: a 429 with Retry-After, and a 503 whose request had
 * already taken effect (the answer was lost), so the retry must carry the same Idempotency-Key and create nothing.
 * This file is type-checked under `strict` by the project's tsc, so the calls below are also a compile-time test
 * of the generated types.
 */
let farm: ExportFarm;
let proxy: FaultProxy;
let client: SiexClient;

beforeAll(async () => {
  farm = await exportFarm('ts-client');
  proxy = await startFaultProxy(gatewayUrl());
  client = createSiexClient({
    baseUrl: proxy.url,
    sidKey: farm.keys.sidKey,
    apiKey: farm.keys.apiKey,
    retry: { baseDelayMs: 50, maxDelayMs: 400 },
  });
});
afterAll(() => proxy.stop());

const seenOn = (method: string, prefix: string) =>
  proxy.seen.filter((s) => s.method === method && s.path.startsWith(prefix));

describe('the TypeScript client, through the README flow', () => {
  let agrifarmId: string;
  let recordUrn: string;

  it('looks the farm up with an integer year, riding out a 429 after its Retry-After', async () => {
    proxy.failNext('GET', '/v1/siex/farms', { status: 429, retryAfterSeconds: 1, mode: 'instead' });
    const started = Date.now();
    const farms = await orThrow(
      client.api.GET('/v1/siex/farms', { params: { query: { rea: farm.rea, year: CAMPAIGN } } }),
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(seenOn('GET', '/v1/siex/farms').map((s) => s.answered)).toEqual([429, 200]);
    agrifarmId = farms[0].id;
    expect(agrifarmId).toBe(farm.agrifarmId);
    expect(farms[0].year).toBe(CAMPAIGN);
  });

  it('gets the idcp of a crop and enclosure', async () => {
    const farms = await orThrow(
      client.api.GET('/v1/siex/farms', { params: { query: { rea: farm.rea, year: CAMPAIGN } } }),
    );
    const vine = farms[0].agriCrop.find((c) => c.crop.typecrop.id === '102')!;
    const { idcp, dimension: _, ...sigpac } = vine.agriParcel[0].sigpac[0];
    const set = await orThrow(
      client.api.POST('/v1/siex/listidcp', {
        params: { query: { agrifarmId } },
        body: { type: 'IDCP', crop: { ...vine.crop }, regionalAttributes: [{ sigpac: [sigpac] }] },
      }),
    );
    expect(set.idcp.map((e) => e.idcp)).toEqual([idcp]);
  });

  it('registers once although the answer was lost: the 503 retry carries the same Idempotency-Key', async () => {
    proxy.failNext('POST', '/v1/entities/agriphytosanitarys', { status: 503, mode: 'after' });
    const created = await orThrow(
      client.api.POST('/v1/entities/agriphytosanitarys', {
        params: { query: { agrifarmId } },
        body: body({ idcp: [farm.vine[0]], ...SIEX_FIELDS }),
      }),
    );
    recordUrn = created[0].id;
    const posts = seenOn('POST', '/v1/entities/agriphytosanitarys');
    expect(posts.map((s) => s.answered)).toEqual([503, 201]);
    expect(posts[0].idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(posts[1].idempotencyKey).toBe(posts[0].idempotencyKey);

    const { data, response } = await client.api.GET('/v1/entities/agriphytosanitarys', {
      params: { query: { agrifarmId, page: 1, page_size: 10 } },
    });
    expect(data?.map((r) => r.id)).toEqual([recordUrn]);
    expect(response.headers.get('X-Total-Count')).toBe('1');
  });

  it('exports and waits for the job with waitForJob, which returns its result', async () => {
    const job = await orThrow(
      client.api.POST('/v1/entities/siex/exportCUE', { params: { query: { agrifarmId } }, body: [{ id: recordUrn }] }),
    );
    expect(job.status).toBe('Iniciando');
    const { job: settled, result } = await client.waitForJob(job.id, { intervalMs: 100 });
    expect(settled.status).toEqual({ type: 'JobStatus', id: '3', name: 'FinalizadoCompleto' });
    expect(result).toEqual({
      data: [{ result: 'ok', id: Number(recordUrn.split(':').pop()), urn: recordUrn }],
      error: [],
    });
    // Every write carried its own key.
    const keys = proxy.seen.filter((s) => s.method === 'POST').map((s) => s.idempotencyKey);
    expect(keys.every((k) => k !== undefined)).toBe(true);
  });

  it('never retries another 4xx, and hands over the typed problem details', async () => {
    const before = seenOn('POST', '/v1/entities/agriphytosanitarys').length;
    const call = orThrow(
      client.api.POST('/v1/entities/agriphytosanitarys', {
        params: { query: { agrifarmId } },
        body: body({ idcp: [farm.vine[1]], dose: 99 }),
      }),
    );
    const error = await call.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProblemError);
    const problem = error as ProblemError;
    expect(problem.status).toBe(422);
    expect(problem.codes).toContain('DOSE_ABOVE_MAX');
    expect(problem.problem?.errors[0].path).toMatch(/^body\./);
    expect(seenOn('POST', '/v1/entities/agriphytosanitarys').length).toBe(before + 1);
  });

  it('types the spec calls: integer year, jobId, page and page_size, and refuses them as strings', () => {
    // Compile-time checks (tsc runs over this file before jest): the calls type-check, the strings do not.
    const typed = () => [
      client.api.GET('/v1/siex/farms', { params: { query: { rea: 'x', year: CAMPAIGN } } }),
      client.api.GET('/api-service/v1/entities/jobstatus', { params: { query: { jobId: 1 } } }),
      client.api.GET('/v1/entities/jobresult', { params: { query: { jobId: 1 } } }),
      client.api.GET('/v1/entities/agriphytosanitarys', {
        params: { query: { agrifarmId: 'x', page: 1, page_size: 20 } },
      }),
      // @ts-expect-error year is an integer
      client.api.GET('/v1/siex/farms', { params: { query: { rea: 'x', year: String(CAMPAIGN) } } }),
      // @ts-expect-error jobId is an integer
      client.api.GET('/api-service/v1/entities/jobstatus', { params: { query: { jobId: '1' } } }),
      client.api.GET('/v1/entities/agriphytosanitarys', {
        // @ts-expect-error page and page_size are integers
        params: { query: { agrifarmId: 'x', page: '1', page_size: '20' } },
      }),
    ];
    expect(typeof typed).toBe('function');
  });
});
