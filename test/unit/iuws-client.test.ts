import { ConfigError, parseSettings } from '../../shared/config/config';
import { IuwsClient, IuwsError, createIuwsClient } from '../../shared/siex/iuws-client';
import { CueSection } from '../../shared/siex/iuws-protocol';
import { fakeRetryWaits, settle } from '../helpers/fake-waits';

// The waits between tries are cockatiel's timers: faked, so that seconds of backoff pass at once.
beforeEach(fakeRetryWaits);
afterEach(() => jest.useRealTimers());

/** The client with every call run to its end, its fake waits elapsed. */
function settling(c: IuwsClient): IuwsClient {
  return {
    ready: (signal) => settle(c.ready(signal)),
    submit: (document, key, signal) => settle(c.submit(document, key, signal)),
    status: (id, signal) => settle(c.status(id, signal)),
  };
}

/** What the fake SIEX saw of one request. */
interface Seen {
  method: string;
  path: string;
  headers: Headers;
  body?: string;
}
type Route = (req: Seen, signal: AbortSignal) => Response | Promise<Response>;

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** A fetch that records every request and answers through `route`. */
function fakeFetch(route: Route) {
  const requests: Seen[] = [];
  const impl = async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const req: Seen = {
      method: init.method ?? 'GET',
      path: url.pathname,
      headers: new Headers(init.headers),
      ...(typeof init.body === 'string' ? { body: init.body } : {}),
    };
    requests.push(req);
    return route(req, init.signal!);
  };
  return { fetch: impl, requests, paths: () => requests.map((r) => `${r.method} ${r.path}`) };
}

/** A SIEX that hands out tokens and then follows `then` for crear / comprobarEstado. */
function siex(then: Route, token = { token: 'tok-1', expiraEn: 3600 }) {
  let issued = 0;
  return fakeFetch((req, signal) => {
    if (req.path === '/iuws/comunicacion') {
      issued++;
      return json(200, { ...token, token: issued === 1 ? token.token : `${token.token}-${issued}` });
    }
    return then(req, signal);
  });
}

const env = {
  AzureWebJobsStorage: 'UseDevelopmentStorage=true',
  SIEX_BASE_URL: 'https://siex.example/iuws/',
  SIEX_USERNAME: 'gateway',
  SIEX_PASSWORD: 's3cret',
  SIEX_TIMEOUT_MS: '50',
  SIEX_MAX_ATTEMPTS: '4',
  SIEX_RETRY_BASE_MS: '100',
};
const settings = (extra: Record<string, string | undefined> = {}) => parseSettings({ ...env, ...extra });

const doc = { CUADERNO: [] };

/** The section the fake SIEX answers about, as a gateway sending it tells its client. */
const SECTIONS: CueSection[] = [{ section: 'TratamFito', idAjena: 'IdAjenaTratamFito' }];

function client(f: { fetch: typeof fetch }, extra: { now?: () => number; random?: () => number } = {}, s = settings()) {
  const sleeps: number[] = [];
  const c = createIuwsClient(s, SECTIONS, {
    fetch: f.fetch,
    onRetry: ({ delayMs }) => void sleeps.push(delayMs),
    random: extra.random ?? (() => 0.999),
    ...(extra.now ? { now: extra.now } : {}),
  });
  return { c: settling(c), sleeps };
}

async function failure(p: Promise<unknown>): Promise<IuwsError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(IuwsError);
    return e as IuwsError;
  }
  throw new Error('expected an IuwsError');
}

describe('IUWS client: token', () => {
  it('asks comunicacion once with the configured credentials and sends the token as a bearer on crear and comprobarEstado', async () => {
    const f = siex((req) =>
      req.path === '/iuws/crear'
        ? json(202, { idPeticion: 'P-1' })
        : json(200, { estado: 'PENDIENTE', resultados: [] }),
    );
    const { c } = client(f);
    expect(await c.submit(doc, 'job-7-batch-1')).toBe('P-1');
    await c.status('P-1');
    await c.status('P-1');
    expect(f.paths()).toEqual([
      'POST /iuws/comunicacion',
      'POST /iuws/crear',
      'GET /iuws/comprobarEstado/P-1',
      'GET /iuws/comprobarEstado/P-1',
    ]);
    expect(JSON.parse(f.requests[0].body!)).toEqual({ usuario: 'gateway', contrasena: 's3cret' });
    const crear = f.requests[1];
    expect(crear.headers.get('authorization')).toBe('Bearer tok-1');
    expect(crear.headers.get('content-type')).toBe('application/json');
    expect(crear.headers.get('x-idempotency-key')).toBe('job-7-batch-1');
    expect(JSON.parse(crear.body!)).toEqual(doc);
    expect(f.requests[2].headers.get('authorization')).toBe('Bearer tok-1');
  });

  it('renews the token 60 s before it expires, or at half its lifetime when that is shorter', async () => {
    let now = 1_000_000;
    const f = siex(() => json(200, { estado: 'PENDIENTE' }), { token: 't', expiraEn: 300 });
    const { c } = client(f, { now: () => now });
    await c.status('A');
    now += 239_000;
    await c.status('A');
    expect(f.paths().filter((p) => p.includes('comunicacion'))).toHaveLength(1);
    now += 2_000;
    await c.status('A');
    expect(f.paths().filter((p) => p.includes('comunicacion'))).toHaveLength(2);

    let now2 = 0;
    const g = siex(() => json(200, { estado: 'PENDIENTE' }), { token: 't', expiraEn: 60 });
    const { c: c2 } = client(g, { now: () => now2 });
    await c2.status('A');
    now2 = 29_000;
    await c2.status('A');
    now2 = 31_000;
    await c2.status('A');
    expect(g.paths().filter((p) => p.includes('comunicacion'))).toHaveLength(2);
  });

  it('shares one comunicacion call between concurrent callers', async () => {
    const f = siex(() => json(200, { estado: 'PENDIENTE' }));
    const { c } = client(f);
    await Promise.all([c.status('A'), c.status('B'), c.status('C')]);
    expect(f.paths().filter((p) => p.includes('comunicacion'))).toHaveLength(1);
  });

  it('on a 401 drops the token, takes a fresh one and repeats the call once, without waiting', async () => {
    let crear = 0;
    const f = siex((req) =>
      req.headers.get('authorization') === 'Bearer tok-1'
        ? json(401, { codigo: 'TOKEN_INVALIDO', descripcion: 'expired' })
        : json(202, { idPeticion: `P-${++crear}` }),
    );
    const { c, sleeps } = client(f);
    expect(await c.submit(doc, 'k')).toBe('P-1');
    expect(f.paths()).toEqual([
      'POST /iuws/comunicacion',
      'POST /iuws/crear',
      'POST /iuws/comunicacion',
      'POST /iuws/crear',
    ]);
    expect(f.requests[3].headers.get('authorization')).toBe('Bearer tok-1-2');
    expect(f.requests[3].headers.get('x-idempotency-key')).toBe('k');
    expect(sleeps).toEqual([]);
    // The fresh token is kept.
    await c.submit(doc, 'k2');
    expect(f.paths()).toHaveLength(5);
  });

  it('a second 401 in a row is an error that retrying will not fix', async () => {
    const f = siex(() => json(401, { codigo: 'TOKEN_INVALIDO', descripcion: 'no' }));
    const { c, sleeps } = client(f);
    const e = await failure(c.status('P-1'));
    expect(e).toMatchObject({ code: 'SIEX_AUTH', status: 401, retryable: false });
    expect(f.paths()).toHaveLength(4);
    expect(sleeps).toEqual([]);
  });

  it('refused credentials are not retried', async () => {
    const f = fakeFetch(() => json(401, { codigo: 'CREDENCIALES_INVALIDAS', descripcion: 'no' }));
    const { c, sleeps } = client(f);
    const e = await failure(c.submit(doc, 'k'));
    expect(e).toMatchObject({ code: 'SIEX_AUTH', status: 401, retryable: false });
    expect(e.message).toMatch(/credentials of SIEX_USERNAME/);
    expect(f.paths()).toEqual(['POST /iuws/comunicacion']);
    expect(sleeps).toEqual([]);
  });

  it('retries a failing comunicacion like any other call', async () => {
    let n = 0;
    const f = fakeFetch((req) => {
      if (req.path.endsWith('/comunicacion'))
        return ++n < 3 ? json(503, { codigo: 'X', descripcion: 'down' }) : json(200, { token: 't', expiraEn: 3600 });
      return json(200, { estado: 'PENDIENTE' });
    });
    const { c, sleeps } = client(f);
    await expect(c.status('A')).resolves.toEqual({ state: 'pending', results: [] });
    expect(sleeps).toHaveLength(2);
  });
});

describe('IUWS client: retries', () => {
  it('retries 5xx with exponential backoff and full jitter, always with the same idempotency key', async () => {
    let n = 0;
    const f = siex(() =>
      ++n <= 3
        ? json(n === 2 ? 500 : 503, { codigo: 'SERVICIO_NO_DISPONIBLE', descripcion: 'down' })
        : json(202, { idPeticion: 'P-9' }),
    );
    const { c, sleeps } = client(f);
    expect(await c.submit(doc, 'job-1-b-1')).toBe('P-9');
    expect(sleeps).toEqual([99, 199, 399]);
    const keys = f.requests.filter((r) => r.path.endsWith('/crear')).map((r) => r.headers.get('x-idempotency-key'));
    expect(keys).toEqual(['job-1-b-1', 'job-1-b-1', 'job-1-b-1', 'job-1-b-1']);
  });

  it('draws the delays at random below the doubling ceiling', async () => {
    const f = siex(() => json(503, { codigo: 'X', descripcion: 'down' }));
    const randoms = [0.5, 0.25, 0];
    const { c, sleeps } = client(f, { random: () => randoms.shift()! });
    await failure(c.status('A'));
    expect(sleeps).toEqual([50, 50, 0]);
  });

  it('after SIEX_MAX_ATTEMPTS tries of 5xx fails with a retryable error that says so', async () => {
    const f = siex(() => json(503, { codigo: 'SERVICIO_NO_DISPONIBLE', descripcion: 'mantenimiento' }));
    const { c, sleeps } = client(f);
    const e = await failure(c.submit(doc, 'k'));
    expect(e).toMatchObject({ code: 'SIEX_UNAVAILABLE', status: 503, retryable: true });
    expect(e.message).toMatch(
      /SIEX crear answered 503: SERVICIO_NO_DISPONIBLE: mantenimiento \(gave up after 4 tries\)/,
    );
    expect(f.paths().filter((p) => p.endsWith('/crear'))).toHaveLength(4);
    expect(sleeps).toHaveLength(3);
  });

  it('honours Retry-After on 429 (seconds) and 503 (HTTP date)', async () => {
    let n = 0;
    // The client's clock, on a whole second as an HTTP date is: the date 5 s on means a wait of exactly 5 s.
    const now = Date.UTC(2026, 3, 1, 10, 0, 0);
    const inFive = new Date(now + 5_000).toUTCString();
    const f = siex(() => {
      n++;
      if (n === 1)
        return json(429, { codigo: 'DEMASIADAS_PETICIONES', descripcion: 'slow down' }, { 'retry-after': '2' });
      if (n === 2) return json(503, { codigo: 'X', descripcion: 'down' }, { 'retry-after': inFive });
      return json(200, { estado: 'PENDIENTE' });
    });
    const { c, sleeps } = client(f, { now: () => now });
    await c.status('A');
    expect(sleeps).toEqual([2000, 5000]);
  });

  it('does not wait out a Retry-After longer than 30 s: the caller (the queue) waits instead', async () => {
    const f = siex(() => json(429, { codigo: 'X', descripcion: 'later' }, { 'retry-after': '120' }));
    const { c, sleeps } = client(f);
    const e = await failure(c.status('A'));
    expect(e).toMatchObject({ code: 'SIEX_UNAVAILABLE', status: 429, retryable: true, retryAfterMs: 120_000 });
    expect(sleeps).toEqual([]);
  });

  it.each([400, 404, 409, 422, 501])('does not retry %i', async (status) => {
    const f = siex(() =>
      json(status, {
        codigo: 'ESQUEMA_INVALIDO',
        descripcion: 'bad',
        errores: [{ instancePath: '/CUADERNO/0/CodigoRea', message: 'must NOT have fewer than 14 characters' }],
      }),
    );
    const { c, sleeps } = client(f);
    const e = await failure(c.submit(doc, 'k'));
    expect(e).toMatchObject({ code: 'SIEX_REJECTED', status, retryable: false });
    expect(e.message).toContain('ESQUEMA_INVALIDO: bad');
    expect(e.message).toContain('/CUADERNO/0/CodigoRea');
    expect(e.details?.errores).toHaveLength(1);
    expect(sleeps).toEqual([]);
    expect(f.paths().filter((p) => p.endsWith('/crear'))).toHaveLength(1);
  });

  it('abandons a call after SIEX_TIMEOUT_MS and retries it', async () => {
    let n = 0;
    const reasons: unknown[] = [];
    const f = siex((_req, signal) =>
      ++n < 3
        ? new Promise<Response>((_, reject) =>
            signal.addEventListener('abort', () => {
              reasons.push(signal.reason);
              reject(signal.reason as Error);
            }),
          )
        : json(202, { idPeticion: 'P-late' }),
    );
    const { c, sleeps } = client(f);
    expect(await c.submit(doc, 'k')).toBe('P-late');
    // The two tries that had no answer were ended by their time-out, not by anything else.
    expect(reasons.map((r) => (r as Error).name)).toEqual(['TimeoutError', 'TimeoutError']);
    expect(sleeps).toHaveLength(2);
  });

  it('a call that never answers ends as a retryable SIEX_TIMEOUT', async () => {
    const f = siex(
      (_req, signal) =>
        new Promise<Response>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error))),
    );
    const { c } = client(f);
    const e = await failure(c.status('A'));
    expect(e).toMatchObject({ code: 'SIEX_TIMEOUT', retryable: true });
    expect(e.message).toMatch(/no answer within 50 ms \(gave up after 4 tries\)/);
  });

  it('retries network errors and names the cause', async () => {
    const f = fakeFetch(() =>
      Promise.reject(
        new TypeError('fetch failed', {
          cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
        }),
      ),
    );
    const { c, sleeps } = client(f);
    const e = await failure(c.submit(doc, 'k'));
    expect(e).toMatchObject({ code: 'SIEX_UNREACHABLE', retryable: true });
    expect(e.message).toMatch(/cannot reach https:\/\/siex\.example\/iuws \(ECONNREFUSED\)/);
    expect(sleeps).toHaveLength(3);
  });

  it("stops at once when the caller's signal is aborted", async () => {
    let asked!: () => void;
    const askedStatus = new Promise<void>((r) => (asked = r));
    const f = siex((req, signal) => {
      if (req.path.includes('comprobarEstado')) asked();
      return new Promise<Response>((_, reject) =>
        signal.addEventListener('abort', () => reject(signal.reason as Error)),
      );
    });
    const { c } = createIuwsSlow(f);
    const controller = new AbortController();
    const call = c.status('A', controller.signal);
    // Aborted while the call waits for SIEX's answer, whenever the machine gets there.
    await askedStatus;
    controller.abort();
    const e = await failure(call);
    expect(e).toMatchObject({ code: 'SIEX_ABORTED', retryable: true });
    expect(f.paths().filter((p) => p.includes('comprobarEstado'))).toHaveLength(1);
  });
});

/** A client whose time-out is long, so only the caller's signal can end a call. */
function createIuwsSlow(f: { fetch: typeof fetch }) {
  return { c: settling(createIuwsClient(settings({ SIEX_TIMEOUT_MS: '60000' }), SECTIONS, { fetch: f.fetch })) };
}

describe('IUWS client: whether a failed crear may be in SIEX (reachedSiex)', () => {
  const hang: Route = (_req, signal) =>
    new Promise<Response>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error)));
  const networkError = (code: string) => () =>
    Promise.reject(new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) }));

  it('says no only when no try can have reached SIEX', async () => {
    const certainlyNot: [string, Route][] = [
      ['503 at every try', () => json(503, { codigo: 'X', descripcion: 'busy' })],
      ['429 at every try', () => json(429, { codigo: 'X', descripcion: 'slow down' })],
      ['400: the document refused', () => json(400, { codigo: 'ESQUEMA_INVALIDO', descripcion: 'no' })],
      ['connection refused', networkError('ECONNREFUSED')],
    ];
    for (const [what, route] of certainlyNot) {
      const e = await failure(client(siex(route)).c.submit(doc, 'k'));
      expect([what, e.reachedSiex]).toEqual([what, false]);
    }
    // No token, no crear.
    const noToken = fakeFetch(() => json(503, { codigo: 'X', descripcion: 'busy' }));
    expect((await failure(client(noToken).c.submit(doc, 'k'))).reachedSiex).toBe(false);
    expect(
      (await failure(client(noToken, {}, settings({ SIEX_BASE_URL: undefined })).c.submit(doc, 'k'))).reachedSiex,
    ).toBe(false);
  });

  it('says maybe after a time-out, a reset, a 500 or a 504, even when a later try was refused', async () => {
    const maybe: [string, Route][] = [
      ['time-out', hang],
      ['connection reset', networkError('ECONNRESET')],
      ['500', () => json(500, { codigo: 'X', descripcion: 'oops' })],
      ['504', () => json(504, { codigo: 'X', descripcion: 'gateway time-out' })],
    ];
    for (const [what, route] of maybe) {
      const e = await failure(client(siex(route)).c.submit(doc, 'k'));
      expect([what, e.reachedSiex]).toEqual([what, true]);
    }
    let n = 0;
    const timeoutThenRefused = siex((req, signal) =>
      ++n === 1 ? hang(req, signal) : json(503, { codigo: 'X', descripcion: 'busy' }),
    );
    expect((await failure(client(timeoutThenRefused).c.submit(doc, 'k'))).reachedSiex).toBe(true);
  });
});

describe('IUWS client: answers', () => {
  it('maps comprobarEstado: PENDIENTE and EN_PROCESO are pending, FINALIZADO carries every record outcome', async () => {
    const answers = [
      { estado: 'PENDIENTE', resultados: [] },
      { estado: 'EN_PROCESO' },
      {
        estado: 'FINALIZADO',
        resultados: [
          { IdAjenaTratamFito: 11, resultado: 'OK', errores: [] },
          {
            IdAjenaTratamFito: 12,
            resultado: 'ERROR',
            errores: [{ codigo: 'SIM_RECHAZADO', descripcion: 'rechazado' }],
          },
          { IdAjenaTratamFito: 13, resultado: 'OK' },
        ],
      },
    ];
    const f = siex(() => json(200, answers.shift()));
    const { c } = client(f);
    await expect(c.status('P-1')).resolves.toEqual({ state: 'pending', results: [] });
    await expect(c.status('P-1')).resolves.toEqual({ state: 'pending', results: [] });
    await expect(c.status('P-1')).resolves.toEqual({
      state: 'done',
      results: [
        { externalId: 11, section: 'TratamFito', ok: true, errors: [] },
        {
          externalId: 12,
          section: 'TratamFito',
          ok: false,
          errors: [{ code: 'SIM_RECHAZADO', message: 'rechazado' }],
        },
        { externalId: 13, section: 'TratamFito', ok: true, errors: [] },
      ],
    });
  });

  it('reads each result by the IdAjena field of its section, for any sections the gateway sends', async () => {
    // Cosecha and Riego: sections of schema 3.11.4 no record kind of the gateway writes. Each IdAjena is a sequence of
    // its section's own: harvest 7 and irrigation 7 are two blocks.
    const sections = [
      { section: 'Cosecha', idAjena: 'IdAjenaCosecha' },
      { section: 'Riego', idAjena: 'IdAjenaRiego' },
    ];
    const resultados = [
      { IdAjenaCosecha: 7, resultado: 'OK', errores: [] },
      { IdAjenaRiego: 7, resultado: 'ERROR', errores: [{ codigo: 'X_1', descripcion: 'mal' }] },
    ];
    const f = siex(() => json(200, { estado: 'FINALIZADO', resultados }));
    const c = settling(createIuwsClient(settings(), sections, { fetch: f.fetch }));
    await expect(c.status('P-1')).resolves.toEqual({
      state: 'done',
      results: [
        { externalId: 7, section: 'Cosecha', ok: true, errors: [] },
        { externalId: 7, section: 'Riego', ok: false, errors: [{ code: 'X_1', message: 'mal' }] },
      ],
    });
  });

  it.each([
    ['names no IdAjena field', { resultado: 'OK' }, /not 0/],
    [
      'names two',
      { IdAjenaTratamFito: 1, IdAjenaCosecha: 1, resultado: 'OK' },
      /not 2 \(IdAjenaTratamFito, IdAjenaCosecha\)/,
    ],
    [
      'names a section the gateway did not send',
      { IdAjenaCosecha: 1, resultado: 'OK' },
      /IdAjenaCosecha, the IdAjena field of no section sent \(IdAjenaTratamFito\)/,
    ],
    [
      'has an id that is not an integer',
      { IdAjenaTratamFito: '1', resultado: 'OK' },
      /IdAjenaTratamFito "1" is not an integer/,
    ],
  ])('a result that %s is a retryable SIEX_PROTOCOL error', async (_, result, message) => {
    const f = siex(() => json(200, { estado: 'FINALIZADO', resultados: [result] }));
    const e = await failure(client(f).c.status('P-1'));
    expect(e).toMatchObject({ code: 'SIEX_PROTOCOL', retryable: true, status: 200 });
    expect(e.message).toMatch(message);
  });

  it('escapes the request id in the path', async () => {
    const f = siex(() => json(200, { estado: 'PENDIENTE' }));
    await client(f).c.status('a/b c');
    expect(f.paths()[1]).toBe('GET /iuws/comprobarEstado/a%2Fb%20c');
  });

  it('a 2xx answer off the protocol is a retryable SIEX_PROTOCOL error, not retried at once', async () => {
    const f = siex((req) => (req.path.endsWith('/crear') ? json(202, { id: 'x' }) : json(200, { estado: 'HECHO' })));
    const { c, sleeps } = client(f);
    await expect(failure(c.submit(doc, 'k'))).resolves.toMatchObject({
      code: 'SIEX_PROTOCOL',
      retryable: true,
      status: 202,
    });
    await expect(failure(c.status('A'))).resolves.toMatchObject({ code: 'SIEX_PROTOCOL', retryable: true });
    expect(sleeps).toEqual([]);
  });

  it('accepts a numeric idPeticion as text', async () => {
    const f = siex(() => json(202, { idPeticion: 4711 }));
    await expect(client(f).c.submit(doc, 'k')).resolves.toBe('4711');
  });

  it('refuses an empty or overlong idempotency key before calling SIEX', async () => {
    const f = siex(() => json(202, { idPeticion: 'P' }));
    const { c } = client(f);
    await expect(failure(c.submit(doc, ''))).resolves.toMatchObject({ retryable: false });
    await expect(failure(c.submit(doc, 'k'.repeat(201)))).resolves.toMatchObject({ retryable: false });
    expect(f.requests).toHaveLength(0);
  });
});

describe('IUWS client: configuration', () => {
  it('without SIEX_BASE_URL every call fails, not retryable, saying what to set, and nothing is sent', async () => {
    const f = siex(() => json(202, { idPeticion: 'P' }));
    const c = createIuwsClient(parseSettings({ AzureWebJobsStorage: 'x' }), SECTIONS, { fetch: f.fetch });
    const e = await failure(c.submit(doc, 'k'));
    expect(e).toMatchObject({ code: 'SIEX_NOT_CONFIGURED', retryable: false });
    expect(e.message).toMatch(/SIEX_BASE_URL/);
    expect(f.requests).toHaveLength(0);
  });

  it('names a Key Vault reference the platform could not resolve', async () => {
    const f = siex(() => json(202, { idPeticion: 'P' }));
    const c = createIuwsClient(
      settings({ SIEX_PASSWORD: '@Microsoft.KeyVault(VaultName=kv-x;SecretName=siex-password)' }),
      SECTIONS,
      { fetch: f.fetch },
    );
    const e = await failure(c.status('A'));
    expect(e).toMatchObject({ code: 'SIEX_NOT_CONFIGURED', retryable: false });
    expect(e.message).toMatch(/SIEX_PASSWORD is a Key Vault reference the platform could not resolve/);
    expect(f.requests).toHaveLength(0);
  });

  it('says when SIEX_CLIENT_CERT is neither PEM nor base64 PFX', async () => {
    const c = createIuwsClient(settings({ SIEX_CLIENT_CERT: 'not a certificate!' }), SECTIONS);
    await expect(failure(c.status('A'))).resolves.toMatchObject({
      code: 'SIEX_NOT_CONFIGURED',
      message: expect.stringMatching(/SIEX_CLIENT_CERT is unusable/),
    });
    const plain = createIuwsClient(
      settings({ SIEX_BASE_URL: 'http://siex.example', SIEX_CLIENT_CERT: 'TUlJ' }),
      SECTIONS,
    );
    await expect(failure(plain.status('A'))).resolves.toMatchObject({
      code: 'SIEX_NOT_CONFIGURED',
      message: 'SIEX_CLIENT_CERT is set, so SIEX_BASE_URL must be https',
    });
  });

  it('the settings schema names the missing credentials when SIEX_BASE_URL is set, and takes blank as unset', () => {
    const withoutCredentials = () =>
      parseSettings({ AzureWebJobsStorage: 'x', SIEX_BASE_URL: 'https://siex.example', SIEX_PASSWORD: '' });
    expect(withoutCredentials).toThrow(ConfigError);
    expect(withoutCredentials).toThrow(/SIEX_USERNAME: SIEX_BASE_URL is set, so SIEX_USERNAME is needed/);
    expect(withoutCredentials).toThrow(/SIEX_PASSWORD: SIEX_BASE_URL is set, so SIEX_PASSWORD is needed/);
    const s = parseSettings({
      AzureWebJobsStorage: 'x',
      SIEX_BASE_URL: '',
      SIEX_USERNAME: '',
      SIEX_CLIENT_CERT: '',
      EMAIL_CONNECTION_STRING: '',
    });
    expect(s).toMatchObject({
      SIEX_TIMEOUT_MS: 10_000,
      SIEX_MAX_ATTEMPTS: 4,
      SIEX_RETRY_BASE_MS: 500,
      EMAIL_SENDER: 'DoNotReply@siex-gateway.local',
    });
    expect(s.SIEX_BASE_URL).toBeUndefined();
    expect(s.SIEX_CLIENT_CERT).toBeUndefined();
    expect(() => parseSettings({ AzureWebJobsStorage: 'x', SIEX_BASE_URL: 'ftp://siex.example' })).toThrow(
      /SIEX_BASE_URL/,
    );
  });

  it('the settings schema refuses a malformed e-mail connection string, and both e-mail credentials at once', () => {
    expect(() => parseSettings({ AzureWebJobsStorage: 'x', EMAIL_CONNECTION_STRING: 'https://acs.example' })).toThrow(
      /EMAIL_CONNECTION_STRING: expected "endpoint=<url>;accesskey=<base64 key>"/,
    );
    expect(() =>
      parseSettings({
        AzureWebJobsStorage: 'x',
        EMAIL_CONNECTION_STRING: 'endpoint=https://a.example/;accesskey=a2V5',
        EMAIL_ENDPOINT: 'https://a.example',
      }),
    ).toThrow(/not both/);
    expect(
      parseSettings({ AzureWebJobsStorage: 'x', EMAIL_ENDPOINT: 'https://acs.communication.azure.com' }).EMAIL_ENDPOINT,
    ).toBe('https://acs.communication.azure.com');
  });
});
