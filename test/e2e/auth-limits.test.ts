import { DateTime } from 'luxon';
import { CAMPAIGN, dataset, testClient, testFarm, uniqueRea } from '../helpers/dataset';
import { call, get, Keys, listIdcpBody, postChunked, postJson, Reply, seed } from '../helpers/http';
import { checkProblemShape } from '../helpers/spec-shapes';

/**
 * Credentials (401), body size (413) and rate limit (429) over HTTP through the local runner (AUTH_MODE=local, where
 * the app checks both keys and the limits itself). Each concern has its own clients, so the rate-limit test's 100
 * requests cannot push another test over the limit.
 */
const rea = uniqueRea();
const madridDay = (days: number) => DateTime.now().setZone('Europe/Madrid').plus({ days }).toFormat('dd-MM-yyyy');
const main = testClient('auth', [rea]);
const other = testClient('auth-other', [rea]);
const expired = testClient('auth-expired', [rea], { expires: madridDay(-1) });
const expiresTomorrow = testClient('auth-tomorrow', [rea], { expires: madridDay(1) });
const sizes = testClient('auth-size', [rea]);
const limited = testClient('auth-limited', [rea]);
const bystander = testClient('auth-bystander', [rea]);

const MB = 1024 * 1024;
const FARM = `/v1/siex/farms?rea=${rea}&year=${CAMPAIGN}`;
let agrifarmId: string;
const listIdcpPath = () => `/v1/siex/listidcp/?agrifarmId=${encodeURIComponent(agrifarmId)}`;
const validBody = () =>
  listIdcpBody({ typecropId: '102', code: 1001 }, [
    [{ prov: '46', town: '213', aggr: '0', zone: '0', pol: '12', parc: '45', enc: '1' }],
  ]);

function expectProblem(reply: Reply, status: number, codes: string[]): void {
  expect(reply.status).toBe(status);
  expect(reply.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  checkProblemShape(reply.json, status);
  expect(reply.json.errors.map((e: any) => e.code)).toEqual(codes);
}

/** A JSON body of exactly `bytes` bytes: a valid listidcp body plus an unknown padding field. */
function bodyOfSize(bytes: number): Buffer {
  const base = JSON.stringify({ ...validBody(), pad: '' });
  const text = base.replace('"pad":""', `"pad":"${'x'.repeat(bytes - Buffer.byteLength(base))}"`);
  const buf = Buffer.from(text);
  if (buf.length !== bytes) throw new Error('padding arithmetic');
  return buf;
}

beforeAll(async () => {
  await seed(
    dataset({ clients: [main, other, expired, expiresTomorrow, sizes, limited, bystander], farms: [testFarm(rea)] }),
  );
  const farm = await get(FARM, main);
  expect(farm.status).toBe(200);
  agrifarmId = farm.json[0].id;
});

describe('401: credentials', () => {
  const endpoints: [string, (keys?: Keys, headers?: Record<string, string>) => Promise<Reply>][] = [
    ['farm lookup', (keys, headers) => get(FARM, keys, headers)],
    ['listidcp', (keys, headers) => postJson(listIdcpPath(), validBody(), keys, headers)],
  ];

  it.each(endpoints)('%s: 200 with both valid keys (the baseline)', async (_, send) => {
    expect((await send(main)).status).toBe(200);
  });

  it.each(endpoints)('%s: 401 without the SID key', async (_, send) => {
    const reply = await send(undefined, { 'Ocp-Apim-Subscription-Key': main.apiKey });
    expectProblem(reply, 401, ['MISSING_CREDENTIALS']);
    expect(reply.json.errors[0].path).toBe('header.Ocp-Apim-Sid-Key');
  });

  it.each(endpoints)('%s: 401 without the API key', async (_, send) => {
    const reply = await send(undefined, { 'Ocp-Apim-Sid-Key': main.sidKey });
    expectProblem(reply, 401, ['MISSING_CREDENTIALS']);
    expect(reply.json.errors[0].path).toBe('header.Ocp-Apim-Subscription-Key');
  });

  it.each(endpoints)('%s: 401 without any key, listing both', async (_, send) => {
    const reply = await send();
    expectProblem(reply, 401, ['MISSING_CREDENTIALS', 'MISSING_CREDENTIALS']);
    expect(reply.json.errors.map((e: any) => e.path).sort()).toEqual([
      'header.Ocp-Apim-Sid-Key',
      'header.Ocp-Apim-Subscription-Key',
    ]);
  });

  it.each(endpoints)('%s: 401 for an empty key value', async (_, send) => {
    expectProblem(await send({ sidKey: '', apiKey: main.apiKey }), 401, ['MISSING_CREDENTIALS']);
  });

  it.each(endpoints)(
    '%s: 401 for a wrong SID key, a wrong API key, or the keys of two clients mixed, all alike',
    async (_, send) => {
      const replies = await Promise.all([
        send({ sidKey: `${main.sidKey}x`, apiKey: main.apiKey }),
        send({ sidKey: main.sidKey, apiKey: `${main.apiKey}x` }),
        send({ sidKey: main.sidKey, apiKey: other.apiKey }),
        send({ sidKey: main.apiKey, apiKey: main.sidKey }),
      ]);
      for (const reply of replies) {
        expectProblem(reply, 401, ['INVALID_CREDENTIALS']);
        // nothing says which key was wrong
        expect(reply.text).toBe(replies[0].text);
      }
    },
  );

  it.each(endpoints)(
    '%s: 401 for credentials that expired yesterday; credentials expiring tomorrow still work',
    async (_, send) => {
      const reply = await send(expired);
      expectProblem(reply, 401, ['EXPIRED_CREDENTIALS']);
      expect(reply.json.detail).toMatch(/expired/i);
      expect((await send(expiresTomorrow)).status).toBe(200);
    },
  );

  it('checks credentials before anything else: a bad body from an unknown caller is 401, not 400', async () => {
    const reply = await call('POST', listIdcpPath(), {
      keys: { sidKey: 'nobody-'.repeat(6), apiKey: 'nothing-'.repeat(6) },
      headers: { 'Content-Type': 'text/plain' },
      body: 'x',
    });
    expectProblem(reply, 401, ['INVALID_CREDENTIALS']);
  });

  it('never echoes a key in an error body', async () => {
    const reply = await get(FARM, { sidKey: main.sidKey, apiKey: `${main.apiKey}x` });
    expect(reply.status).toBe(401);
    expect(reply.text).not.toContain(main.sidKey);
    expect(reply.text).not.toContain(`${main.apiKey}x`);
  });
});

describe('413: request body over 1 MB', () => {
  it('accepts a body of exactly 1 MB (it reaches validation: 400 for the padding field)', async () => {
    const reply = await call('POST', listIdcpPath(), {
      keys: sizes,
      headers: { 'Content-Type': 'application/json' },
      body: bodyOfSize(MB),
    });
    expectProblem(reply, 400, ['UNKNOWN_FIELD']);
    expect(reply.json.errors[0].path).toBe('body.pad');
  });

  it('refuses a body of 1 MB + 1 byte sent with its Content-Length', async () => {
    const reply = await call('POST', listIdcpPath(), {
      keys: sizes,
      headers: { 'Content-Type': 'application/json' },
      body: bodyOfSize(MB + 1),
    });
    expectProblem(reply, 413, ['PAYLOAD_TOO_LARGE']);
  });

  it('refuses a body over 1 MB sent chunked, with no Content-Length', async () => {
    const body = bodyOfSize(MB + 1);
    const chunks = Array.from({ length: Math.ceil(body.length / 65_536) }, (_, i) =>
      body.subarray(i * 65_536, (i + 1) * 65_536),
    );
    const reply = await postChunked(listIdcpPath(), chunks, {
      'Content-Type': 'application/json',
      'Ocp-Apim-Sid-Key': sizes.sidKey,
      'Ocp-Apim-Subscription-Key': sizes.apiKey,
    });
    expectProblem(reply, 413, ['PAYLOAD_TOO_LARGE']);
  });

  it('serves a small body sent chunked (so the 413 above is about size, not framing)', async () => {
    const text = Buffer.from(JSON.stringify(validBody()));
    const reply = await postChunked(listIdcpPath(), [text.subarray(0, 10), text.subarray(10)], {
      'Content-Type': 'application/json',
      'Ocp-Apim-Sid-Key': sizes.sidKey,
      'Ocp-Apim-Subscription-Key': sizes.apiKey,
    });
    expect(reply.status).toBe(200);
    expect(reply.json.idcp).toHaveLength(1);
  });

  it('refuses an over-size body that is not even JSON with 413 (size is checked before content)', async () => {
    const reply = await call('POST', listIdcpPath(), {
      keys: sizes,
      headers: { 'Content-Type': 'application/json' },
      body: Buffer.alloc(2 * MB, 0x7b),
    });
    expectProblem(reply, 413, ['PAYLOAD_TOO_LARGE']);
  });
});

describe('429: 100 requests per minute per client', () => {
  it('serves 100 requests, refuses the 101st with Retry-After, and leaves other clients alone', async () => {
    const statuses: number[] = [];
    for (let batch = 0; batch < 10; batch++) {
      const replies = await Promise.all(Array.from({ length: 10 }, () => get(FARM, limited)));
      statuses.push(...replies.map((r) => r.status));
    }
    expect(statuses).toEqual(Array(100).fill(200));

    const refused = await get(FARM, limited);
    expectProblem(refused, 429, ['RATE_LIMITED']);
    const retryAfter = refused.headers.get('retry-after');
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);

    // the limit is per client, across endpoints
    const otherEndpoint = await postJson(listIdcpPath(), validBody(), limited);
    expectProblem(otherEndpoint, 429, ['RATE_LIMITED']);
    expect(otherEndpoint.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await get(FARM, bystander)).status).toBe(200);
  });
});
