import { REDACTED, isCredentialName, redactUrl, redactedHeaderLines } from '../../local/runner/redact';

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
