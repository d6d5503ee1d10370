import {
  datasetKeys,
  REDACTED,
  isCredentialName,
  redactUrl,
  redactedHeaderLines,
  Secrets,
} from '../../local/runner/redact';

/** What the runner's access log may show of a request (local/runner/redact.ts). */

describe('credential-like names', () => {
  it.each([
    'subscription-key',
    'Ocp-Apim-Subscription-Key',
    'Ocp-Apim-Sid-Key',
    'code',
    'CODE',
    'sig',
    'x-functions-key',
    'api_key',
    'apiKey',
    'access_token',
    'refresh-token',
    'client_secret',
    'password',
    'passwd',
    'pwd',
    'Authorization',
    'Proxy-Authorization',
    'Cookie',
    'session_id',
    'signature',
    'x-ms-credential',
  ])('hides %s', (name) => {
    expect(isCredentialName(name)).toBe(true);
  });

  it.each(['page', 'page_size', 'agrifarmId', 'jobId', 'rea', 'year', 'content-type', 'traceparent', 'sv', 'se'])(
    'shows %s',
    (name) => {
      expect(isCredentialName(name)).toBe(false);
    },
  );
});

describe('a request target in the log', () => {
  it('replaces the values of credential-like parameters and keeps everything else as sent', () => {
    expect(redactUrl('/v1/siex/farms?rea=46000000001&subscription-key=abc&year=2026&code=xyz')).toBe(
      `/v1/siex/farms?rea=46000000001&subscription-key=${REDACTED}&year=2026&code=${REDACTED}`,
    );
    expect(redactUrl('/x?b=x%20y&empty=&flag&sig=s%2Fg%3D')).toBe(`/x?b=x%20y&empty=&flag&sig=${REDACTED}`);
  });

  it('hides every occurrence of a repeated parameter, and names written with escapes or +', () => {
    expect(redactUrl('/x?token=1&token=2')).toBe(`/x?token=${REDACTED}&token=${REDACTED}`);
    expect(redactUrl('/x?subscription%2Dkey=1&api+key=2&%E0=3')).toBe(
      `/x?subscription%2Dkey=${REDACTED}&api+key=${REDACTED}&%E0=3`,
    );
  });

  it('leaves a target without a query alone', () => {
    expect(redactUrl('/v1/openapi.json')).toBe('/v1/openapi.json');
    expect(redactUrl('/x?')).toBe('/x?');
  });
});

describe('request headers in the log', () => {
  it('lists every header, with the values of credential-like ones replaced', () => {
    expect(
      redactedHeaderLines({
        host: '127.0.0.1:7071',
        'ocp-apim-subscription-key': 'api-secret',
        'ocp-apim-sid-key': 'sid-secret',
        authorization: 'Bearer t',
        'idempotency-key': 'k-1',
        'content-type': 'application/json',
      }),
    ).toEqual([
      'host: 127.0.0.1:7071',
      `ocp-apim-subscription-key: ${REDACTED}`,
      `ocp-apim-sid-key: ${REDACTED}`,
      `authorization: ${REDACTED}`,
      `idempotency-key: ${REDACTED}`,
      'content-type: application/json',
    ]);
  });
});

describe('known key values, wherever they appear', () => {
  const sid = 'sid-0123456789abcdef';
  const api = 'api+key/with=odd&chars';

  it('are hidden in any line, under any parameter name, as sent or percent-encoded', () => {
    const secrets = new Secrets();
    secrets.add(sid);
    secrets.add(api);
    expect(secrets.scrub(`GET /v1/x?sid=${sid}&x=${encodeURIComponent(api)} 200`)).toBe(
      `GET /v1/x?sid=${REDACTED}&x=${REDACTED} 200`,
    );
    expect(secrets.scrub(`Error: no client for ${sid}${sid}\n    at ${api}`)).toBe(
      `Error: no client for ${REDACTED}${REDACTED}\n    at ${REDACTED}`,
    );
  });

  it('are hidden however they are percent-encoded: the line is judged as the app decodes it (issue 36)', () => {
    const secrets = new Secrets();
    secrets.add('demo-sid-0001-abcdef');
    const oddly = '%64emo-sid-0001-abcdef';
    const everyChar = [...'demo-sid-0001-abcdef'].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
    expect(secrets.scrub(`GET /v1/siex/farms?rea=1&x=${oddly} 401 3ms`)).toBe(
      `GET /v1/siex/farms?rea=1&x=${REDACTED} 401 3ms`,
    );
    expect(secrets.scrub(`GET /nowhere/${everyChar.toUpperCase()} 404`)).toBe(`GET /nowhere/${REDACTED} 404`);
    // Beside bytes that are no UTF-8 (a stray %E0), and inside a quoted message.
    expect(secrets.scrub(`error: "/x?a=%E0&b=demo-sid-0001-%61bcdef"`)).toBe(`error: "/x?a=\ufffd&b=${REDACTED}"`);
    // A word with escapes but no key stays as sent, and so does the rest of the line.
    expect(secrets.scrub(`GET /x?a=%20b%2Fc&k=${oddly} 200`)).toBe(`GET /x?a=%20b/c&k=${REDACTED} 200`);
    expect(secrets.scrub('GET /x?a=%20b%2Fc 200 50%')).toBe('GET /x?a=%20b%2Fc 200 50%');
  });

  it('come from credential headers, credential settings and connection strings, and a dataset', () => {
    const secrets = new Secrets();
    secrets.addHeaders({ 'ocp-apim-sid-key': sid, authorization: 'Bearer tok-0123456789', accept: 'application/json' });
    secrets.addSettings({
      SIEX_PASSWORD: 'pass-0123456789',
      EMAIL_CONNECTION_STRING: 'endpoint=http://127.0.0.1:1/;accesskey=c2VjcmV0LWtleS0x',
      SIEX_USERNAME: 'gateway-user',
    });
    for (const key of datasetKeys({
      clients: [{ sidKey: 'dataset-sid-0001', previousSidKey: 'dataset-old-0001', apiKey: 'dataset-api-0001' }, null],
    }))
      secrets.add(key);
    const line = `${sid} tok-0123456789 pass-0123456789 c2VjcmV0LWtleS0x dataset-sid-0001 dataset-old-0001 dataset-api-0001 application/json gateway-user http://127.0.0.1:1/`;
    expect(secrets.scrub(line)).toBe(
      `${REDACTED} ${REDACTED} ${REDACTED} ${REDACTED} ${REDACTED} ${REDACTED} ${REDACTED} application/json gateway-user http://127.0.0.1:1/`,
    );
  });

  it('leave short values alone: they would blank out ordinary words', () => {
    const secrets = new Secrets();
    secrets.add('abc');
    secrets.addHeaders({ 'ocp-apim-sid-key': '' });
    expect(secrets.scrub('abc 200')).toBe('abc 200');
  });
});
