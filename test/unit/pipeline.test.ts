import { HttpRequest, HttpResponseInit, InvocationContext } from '@azure/functions';
import { DateTime } from 'luxon';
import { listIdcp } from '../../shared/http/contracts/list-idcp';
import { Client } from '../../shared/clients/client-store';
import { hashKey } from '../../shared/clients/keys';
import { ConfigError, parseSettings } from '../../shared/config/config';
import { authenticate, authMode } from '../../shared/http/auth';
import { checkAuthSettings } from '../../shared/config/auth-settings';
import { endpoint, EndpointApp, Reply } from '../../shared/http/endpoint';
import { DomainError } from '../../shared/domain/errors';
import { RateLimiter } from '../../shared/clients/rate-limit';
import { Admission } from '../../shared/http/admission';
import { ManualClock } from '../helpers/manual-clock';
import { checkProblemShape } from '../helpers/spec-shapes';

const SID = 'sid-key-of-the-pipeline-test-client-0001';
/** API Management's identity, as App Service authentication names it in X-MS-CLIENT-PRINCIPAL-ID. */
const APIM = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const API = 'api-key-of-the-pipeline-test-client-0001';
const client: Client = {
  id: 'pipe',
  name: 'Pipe',
  email: 'p@x',
  apiKeyHash: hashKey(API),
  expires: '',
  farms: [],
  apimSubscriptionId: 'sub-1',
  webhookUrl: '',
};

/** The pipeline's gate with one client; the handles under test use no use cases. */
function fakeServices(
  mode: 'local' | 'apim',
  overrides: Partial<Client> = {},
  limit = 100,
  maxBodyBytes = 1024,
  admission = new Admission(16, 2000, new ManualClock()),
): EndpointApp<null> {
  return {
    gate: {
      settings: {
        AUTH_MODE: mode,
        APIM_PRINCIPAL_ID: APIM,
        RATE_LIMIT_PER_MINUTE: limit,
        MAX_BODY_BYTES: maxBodyBytes,
      },
      findClient: async (sid: string) => (sid === SID ? { ...client, ...overrides } : null),
      limiter: new RateLimiter(limit, 60_000),
      admission,
      // listIdcp takes no Idempotency-Key: the pipeline never asks.
      keys: { within: () => Promise.reject(new Error('listIdcp binds no Idempotency-Key')) },
    },
    useCases: null,
  };
}

const validBody = {
  type: 'IDCP',
  crop: { type: 'TypeCropVariety', typecrop: { id: '102', type: 'TypeCrop', name: 'VIÑA' }, code: 1001, name: 'T' },
  regionalAttributes: [
    { sigpac: [{ prov: '46', town: '213', aggr: '0', zone: '0', pol: '12', parc: '45', enc: '1' }] },
  ],
};

function request(init: { headers?: Record<string, string>; body?: string | Buffer; query?: string } = {}): HttpRequest {
  return new HttpRequest({
    method: 'POST',
    url: `http://localhost/v1/siex/listidcp/${init.query ?? '?agrifarmId=urn:ngsi-ld:AgriFarm:1'}`,
    headers: {
      'Ocp-Apim-Sid-Key': SID,
      'Ocp-Apim-Subscription-Key': API,
      'Content-Type': 'application/json',
      ...init.headers,
    },
    body: Buffer.isBuffer(init.body) ? { bytes: init.body } : { string: init.body ?? JSON.stringify(validBody) },
  });
}

async function run(
  services: EndpointApp<null>,
  req: HttpRequest,
  handle: () => Promise<Reply> = async () => ({ status: 200, json: { ok: true } }),
) {
  const context = new InvocationContext({
    invocationId: 'inv-123',
    functionName: 'listIdcp',
    logHandler: () => undefined,
  });
  const res: HttpResponseInit = await endpoint(listIdcp, handle, () => services)(req, context);
  const text = typeof res.body === 'string' ? res.body : '';
  return { status: res.status, headers: res.headers as Record<string, string>, text, json: JSON.parse(text) };
}

describe('request pipeline (endpoint)', () => {
  it('hands a valid request to the handler with the client, parsed query and body, and serializes its reply', async () => {
    let seen: unknown;
    const res = await run(fakeServices('local'), request(), async () => {
      seen = 'called';
      return { status: 201, json: { created: 1 }, headers: { 'X-Extra': 'y' } };
    });
    expect(seen).toBe('called');
    expect(res.status).toBe(201);
    expect(res.headers).toMatchObject({ 'Content-Type': 'application/json; charset=utf-8', 'X-Extra': 'y' });
    expect(res.json).toEqual({ created: 1 });
  });

  it('serves rawJson replies as they are', async () => {
    const res = await run(fakeServices('local'), request(), async () => ({ status: 200, rawJson: '[{"a":1}]' }));
    expect(res.text).toBe('[{"a":1}]');
  });

  it('answers an unexpected handler error with a 500 that names the invocation and hides the internals', async () => {
    const res = await run(fakeServices('local'), request(), async () => {
      throw new Error('connection string AccountKey=secret leaked?');
    });
    expect(res.status).toBe(500);
    expect(res.headers['Content-Type']).toBe('application/problem+json');
    checkProblemShape(res.json, 500);
    expect(res.json.errors).toEqual([{ code: 'INTERNAL', path: '', message: 'invocation inv-123' }]);
    expect(res.text).not.toContain('secret');
  });

  it('passes a DomainError of the handler through as problem details', async () => {
    const res = await run(fakeServices('local'), request(), async () => {
      throw new DomainError('agrifarmId not found or not accessible', [
        { code: 'AGRIFARM_NOT_FOUND', path: 'query.agrifarmId', message: 'm' },
      ]);
    });
    expect(res.status).toBe(404);
    checkProblemShape(res.json, 404);
  });

  it('turns a request away with 503 OVERLOADED and Retry-After, its client not even read, when the instance is full', async () => {
    const clock = new ManualClock();
    const services = fakeServices('local', {}, 100, 1024, new Admission(1, 2000, clock, 0));
    let reads = 0;
    const findClient = services.gate.findClient;
    services.gate.findClient = (sid) => (reads++, findClient(sid));
    let finish!: () => void;
    const working = run(
      services,
      request(),
      () => new Promise<Reply>((r) => (finish = () => r({ status: 200, json: 1 }))),
    );
    await new Promise((r) => setImmediate(r));
    const refused = await run(services, request());
    expect(refused.status).toBe(503);
    expect(refused.headers['Retry-After']).toBe('2');
    expect(refused.json.errors.map((e: { code: string }) => e.code)).toEqual(['OVERLOADED']);
    checkProblemShape(refused.json, 503);
    expect(reads).toBe(1);
    finish();
    expect((await working).status).toBe(200);
    // The place is free again: the next request is served.
    expect((await run(services, request())).status).toBe(200);
  });

  it('checks in order: credentials, rate limit, size, content type, JSON, schema', async () => {
    const svc = fakeServices('local', {}, 1);
    const big = JSON.stringify({ ...validBody, pad: 'x'.repeat(2000) });
    // everything wrong at once: the credentials are reported first
    expect((await run(svc, request({ headers: { 'Ocp-Apim-Subscription-Key': 'wrong' }, body: big }))).status).toBe(
      401,
    );
    // (a refused request does not count against the limit; the first good one does)
    expect((await run(svc, request({ body: big }))).status).toBe(413);
    expect((await run(svc, request({ body: big }))).status).toBe(429);
    const fresh = () => fakeServices('local');
    expect((await run(fresh(), request({ body: big, headers: { 'Content-Type': 'text/plain' } }))).status).toBe(413);
    const wrongType = await run(fresh(), request({ body: '{', headers: { 'Content-Type': 'text/plain' } }));
    expect(wrongType.json.errors[0].code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const malformed = await run(fresh(), request({ body: '{' }));
    expect(malformed.json.errors[0].code).toBe('MALFORMED_JSON');
  });

  it('refuses a body nested deeper than 64 levels with 400 JSON_TOO_DEEP before parsing it, whatever its depth', async () => {
    let called = false;
    const handle = async (): Promise<Reply> => {
      called = true;
      return { status: 200, json: {} };
    };
    const svc = fakeServices('local', {}, 100, 1024 * 1024);
    for (const depth of [65, 10_000, 200_000]) {
      const res = await run(svc, request({ body: '['.repeat(depth) + ']'.repeat(depth) }), handle);
      expect(res.status).toBe(400);
      checkProblemShape(res.json, 400);
      expect(res.json.errors.map((e: any) => [e.code, e.path])).toEqual([['JSON_TOO_DEEP', 'body']]);
    }
    // An unclosed one too: its depth is known before JSON.parse would call it malformed.
    const unclosed = await run(svc, request({ body: '{"a":'.repeat(100) }), handle);
    expect(unclosed.json.errors[0].code).toBe('JSON_TOO_DEEP');
    expect(called).toBe(false);
  });

  it('counts brackets inside strings as text, and lets 64 levels through', async () => {
    const svc = fakeServices('local', {}, 100, 1024 * 1024);
    const inString = JSON.stringify({ ...validBody, note: '[{'.repeat(1000) + '\\"[' });
    expect((await run(svc, request({ body: inString }))).json.errors?.[0]?.code).not.toBe('JSON_TOO_DEEP');
    const res = await run(svc, request({ body: '['.repeat(64) + ']'.repeat(64) }));
    expect(res.status).toBe(400);
    expect(res.json.errors.map((e: any) => e.code)).not.toContain('JSON_TOO_DEEP');
  });

  it('reports query and body violations together', async () => {
    const res = await run(
      fakeServices('local'),
      request({ query: '', body: JSON.stringify({ ...validBody, type: 'X' }) }),
    );
    expect(res.status).toBe(400);
    expect(res.json.errors.map((e: any) => [e.code, e.path])).toEqual([
      ['REQUIRED', 'query.agrifarmId'],
      ['INVALID_VALUE', 'body.type'],
    ]);
  });

  it('accepts JSON content types with parameters or a +json suffix', async () => {
    for (const type of [
      'application/json',
      'application/json; charset=utf-8',
      'Application/JSON',
      'application/merge+json',
    ]) {
      expect((await run(fakeServices('local'), request({ headers: { 'Content-Type': type } }))).status).toBe(200);
    }
  });

  it('refuses a body in another charset, or bytes that are not UTF-8, with 415 UNSUPPORTED_CHARSET', async () => {
    const text = JSON.stringify({
      ...validBody,
      crop: { ...validBody.crop, typecrop: { ...validBody.crop.typecrop, name: 'VIÑA' } },
    });
    const refused = [
      { type: 'application/json; charset=utf-16le', bytes: Buffer.from(text, 'utf16le') },
      { type: 'application/json; charset=iso-8859-1', bytes: Buffer.from(text, 'latin1') },
      // Latin-1 bytes sent as (implicitly) UTF-8 would be stored with replacement characters.
      { type: 'application/json', bytes: Buffer.from(text, 'latin1') },
    ];
    for (const { type, bytes } of refused) {
      const res = await run(fakeServices('local'), request({ headers: { 'Content-Type': type }, body: bytes }));
      expect([type, res.status, res.json.errors.map((e: any) => [e.code, e.path])]).toEqual([
        type,
        415,
        [['UNSUPPORTED_CHARSET', 'header.Content-Type']],
      ]);
      checkProblemShape(res.json, 415);
      expect(res.json.title).toBe('Unsupported Media Type');
    }
    for (const type of [
      'application/json; charset=UTF-8',
      'application/json;charset="utf-8"',
      'application/json; charset=utf8',
    ]) {
      const res = await run(
        fakeServices('local'),
        request({ headers: { 'Content-Type': type }, body: Buffer.from(text) }),
      );
      expect([type, res.status]).toEqual([type, 200]);
    }
  });

  it('answers a 1 MB body of unknown keys with the first 100 violations and their count, not all of them', async () => {
    const keys = Object.fromEntries(Array.from({ length: 80_000 }, (_, i) => [`k${i}`, 0]));
    const body = JSON.stringify({ ...validBody, ...keys });
    expect(body.length).toBeLessThan(1024 * 1024);
    const res = await run(fakeServices('local', {}, 100, 1024 * 1024), request({ body }));
    expect(res.status).toBe(400);
    expect(res.json.errors).toHaveLength(100);
    expect(res.json.errors[0]).toEqual({ code: 'UNKNOWN_FIELD', path: 'body.k0', message: 'field not accepted here' });
    expect(res.json.errorCount).toBe(80_000);
    expect(res.text.length).toBeLessThan(10_000);
  });

  it('in apim mode trusts API Management with the subscription key and the rate limit, but still resolves the client', async () => {
    const svc = fakeServices('apim', {}, 1);
    expect((await run(svc, noApiKeyWith('sub-1'))).status).toBe(200);
    expect((await run(svc, noApiKeyWith('sub-1'))).status).toBe(200); // limit 1, not enforced here
    const unknownSid = new HttpRequest({
      method: 'POST',
      url: 'http://localhost/x',
      headers: { 'Ocp-Apim-Sid-Key': 'nope', ...admittedAs(APIM) },
    });
    expect((await run(svc, unknownSid)).status).toBe(401);
  });

  it("in apim mode refuses a SID key presented with another client's subscription key (or with none)", async () => {
    const svc = fakeServices('apim');
    const other = await run(svc, noApiKeyWith('sub-of-someone-else'));
    expect([other.status, other.json.errors[0].code]).toEqual([401, 'INVALID_CREDENTIALS']);
    expect((await run(svc, noApiKeyWith(undefined))).status).toBe(401);
    expect((await run(svc, noApiKeyWith('sub-1'))).status).toBe(200);
  });

  it('in apim mode refuses the subscription header on a request App Service authentication did not admit as API Management', async () => {
    const svc = fakeServices('apim');
    const forged = [
      noApiKeyWith('sub-1', {}), // no token at all: the platform set no principal
      noApiKeyWith('sub-1', admittedAs('0f0e0d0c-0b0a-4909-8807-060504030201')), // another identity of the tenant
      noApiKeyWith('sub-1', { ...admittedAs(APIM), 'X-MS-CLIENT-PRINCIPAL-IDP': 'github' }), // not Entra ID
    ];
    for (const req of forged) {
      const res = await run(svc, req);
      expect([res.status, res.json.errors[0].code]).toEqual([401, 'INVALID_CREDENTIALS']);
      expect(res.json.detail).toBe('The request did not come through the gateway.');
    }
    // The same request from API Management passes; the object id is compared as a GUID, in any case.
    expect((await run(svc, noApiKeyWith('sub-1', admittedAs(APIM.toUpperCase())))).status).toBe(200);
  });

  it('in local mode ignores the API Management headers and checks the API key itself', async () => {
    const svc = fakeServices('local');
    const res = await run(svc, noApiKeyWith('sub-1'));
    expect([res.status, res.json.errors[0].code, res.json.errors[0].path]).toEqual([
      401,
      'MISSING_CREDENTIALS',
      'header.Ocp-Apim-Subscription-Key',
    ]);
  });
});

/** The headers App Service authentication sets on a request it admitted with an Entra ID token of `principal`. */
function admittedAs(principal: string): Record<string, string> {
  return { 'X-MS-CLIENT-PRINCIPAL-ID': principal, 'X-MS-CLIENT-PRINCIPAL-IDP': 'aad' };
}

function noApiKeyWith(
  subscription: string | undefined,
  platform: Record<string, string> = admittedAs(APIM),
): HttpRequest {
  return new HttpRequest({
    method: 'POST',
    url: 'http://localhost/v1/siex/listidcp?agrifarmId=x',
    headers: {
      'Ocp-Apim-Sid-Key': SID,
      'Content-Type': 'application/json',
      ...platform,
      ...(subscription ? { 'X-Apim-Subscription-Id': subscription } : {}),
    },
    body: { string: JSON.stringify(validBody) },
  });
}

describe('AUTH_MODE has no default', () => {
  it('refuses to authenticate without it, naming the setting', async () => {
    const req = new HttpRequest({ method: 'GET', url: 'http://localhost/', headers: { 'Ocp-Apim-Sid-Key': SID } });
    await expect(authenticate(req, {}, async () => client)).rejects.toThrow(ConfigError);
    await expect(authenticate(req, {}, async () => client)).rejects.toThrow(/AUTH_MODE is not set/);
  });

  it('is not filled in by the settings schema, and apim mode needs the identity of API Management', () => {
    expect(parseSettings({ AzureWebJobsStorage: 'x' }).AUTH_MODE).toBeUndefined();
    expect(() => authMode(parseSettings({ AzureWebJobsStorage: 'x' }))).toThrow(/AUTH_MODE is not set/);
    expect(() => parseSettings({ AzureWebJobsStorage: 'x', AUTH_MODE: 'apim' })).toThrow(
      /APIM_PRINCIPAL_ID: AUTH_MODE is 'apim'/,
    );
    expect(() => parseSettings({ AzureWebJobsStorage: 'x', AUTH_MODE: 'apim', APIM_PRINCIPAL_ID: 'apim' })).toThrow(
      /APIM_PRINCIPAL_ID/,
    );
    expect(
      parseSettings({ AzureWebJobsStorage: 'x', AUTH_MODE: 'apim', APIM_PRINCIPAL_ID: APIM }).APIM_PRINCIPAL_ID,
    ).toBe(APIM);
    expect(authMode(parseSettings({ AzureWebJobsStorage: 'x', AUTH_MODE: 'local' }))).toBe('local');
  });
});

describe('the start-up check of the auth settings (no schema library)', () => {
  it('names AUTH_MODE when missing or unknown, and APIM_PRINCIPAL_ID when apim mode lacks it, as the schema does', () => {
    expect(() => checkAuthSettings({})).toThrow(ConfigError);
    expect(() => checkAuthSettings({ AUTH_MODE: ' ' })).toThrow(/AUTH_MODE is not set/);
    expect(() => checkAuthSettings({ AUTH_MODE: 'open' })).toThrow(/AUTH_MODE: expected 'local' or 'apim', got "open"/);
    expect(() => checkAuthSettings({ AUTH_MODE: 'apim', APIM_PRINCIPAL_ID: '' })).toThrow(
      /APIM_PRINCIPAL_ID: AUTH_MODE is 'apim'/,
    );
    expect(checkAuthSettings({ AUTH_MODE: 'apim', APIM_PRINCIPAL_ID: APIM })).toBe('apim');
    expect(checkAuthSettings({ AUTH_MODE: 'local' })).toBe('local');
  });
});

describe('authenticate: expiry day in Madrid time', () => {
  const req = () =>
    new HttpRequest({
      method: 'GET',
      url: 'http://localhost/',
      headers: { 'Ocp-Apim-Sid-Key': SID, 'Ocp-Apim-Subscription-Key': API },
    });
  const find = async () => ({ ...client, expires: '2026-11-22' });

  it('still accepts the credentials on their last day, up to midnight in Madrid', async () => {
    // 22-11-2026 23:59:59 in Madrid is 22:59:59Z
    await expect(
      authenticate(req(), { AUTH_MODE: 'local' }, find, () => DateTime.fromISO('2026-11-22T22:59:59Z')),
    ).resolves.toMatchObject({
      id: 'pipe',
    });
  });

  it('refuses them from midnight in Madrid, even while it is still the last day in UTC', async () => {
    // 23:00Z on the 22nd is already the 23rd in Madrid (CET, +01:00)
    await expect(
      authenticate(req(), { AUTH_MODE: 'local' }, find, () => DateTime.fromISO('2026-11-22T23:00:00Z')),
    ).rejects.toMatchObject({
      violations: [{ code: 'EXPIRED_CREDENTIALS' }],
    });
  });

  it('never expires credentials without an expiry day', async () => {
    await expect(
      authenticate(
        req(),
        { AUTH_MODE: 'local' },
        async () => client,
        () => DateTime.fromISO('2099-01-01T00:00:00Z'),
      ),
    ).resolves.toBeDefined();
  });
});
