import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Server, createServer, request } from 'node:https';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TLSSocket } from 'node:tls';
import { parseSettings } from '../../shared/config/config';
import { clientCertificateFetch, parseClientCertificate } from '../../shared/http-client/client-certificate';
import { IuwsError, createIuwsClient } from '../../shared/siex/iuws-client';

/**
 * The TLS client certificate SIEX demands in production, against a local https server that requires one: a throwaway
 * CA, server and client certificate made with openssl, the client certificate as PEM (cert + key) and as base64 PFX
 * (what Key Vault hands to an app setting for an imported certificate).
 */

let dir: string;
let pki: { ca: string; serverKey: string; serverCert: string; clientPem: string; clientPfxBase64: string };
let server: Server;
let url: string;
const seen: { path: string; clientCn?: string; authorized: boolean }[] = [];

function openssl(...args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'siex-pki-'));
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-days',
    '2',
    '-subj',
    '/CN=test-ca',
  );
  openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
    '-subj',
    '/CN=localhost',
  );
  writeFileSync(join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.crt',
    '-days',
    '2',
    '-extfile',
    'server.ext',
  );
  openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'client.key',
    '-out',
    'client.csr',
    '-subj',
    '/CN=siex-gateway-client',
  );
  openssl(
    'x509',
    '-req',
    '-in',
    'client.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'client.crt',
    '-days',
    '2',
  );
  openssl('pkcs12', '-export', '-inkey', 'client.key', '-in', 'client.crt', '-out', 'client.pfx', '-passout', 'pass:');
  const read = (f: string) => readFileSync(join(dir, f), 'utf8');
  pki = {
    ca: read('ca.crt'),
    serverKey: read('server.key'),
    serverCert: read('server.crt'),
    clientPem: `${read('client.crt')}${read('client.key')}`,
    clientPfxBase64: readFileSync(join(dir, 'client.pfx')).toString('base64'),
  };
  server = createServer(
    { key: pki.serverKey, cert: pki.serverCert, ca: pki.ca, requestCert: true, rejectUnauthorized: true },
    (req, res) => {
      const socket = req.socket as TLSSocket;
      seen.push({
        path: req.url ?? '',
        clientCn: socket.getPeerCertificate().subject?.CN as string | undefined,
        authorized: socket.authorized,
      });
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        if (req.url === '/moved') return void res.writeHead(307, { location: '/iuws/comunicacion' }).end();
        res.writeHead(200, { 'content-type': 'application/json', 'x-echo-method': req.method ?? '' });
        res.end(JSON.stringify({ token: 't', expiraEn: 60, echo: body }));
      });
    },
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

describe('client certificate for SIEX', () => {
  it('reads PEM (certificate and key, in any order, with literal \\n) and base64 PFX', () => {
    const pem = parseClientCertificate(pki.clientPem);
    expect(pem).toEqual({
      cert: expect.stringContaining('BEGIN CERTIFICATE'),
      key: expect.stringContaining('PRIVATE KEY'),
    });
    const keyFirst = parseClientCertificate(
      pki.clientPem
        .split(/(?=-----BEGIN PRIVATE KEY)/)
        .reverse()
        .join('')
        .replace(/\n/g, '\\n'),
    );
    expect(keyFirst).toEqual(pem);
    expect(parseClientCertificate(pki.clientPfxBase64)).toEqual({ pfx: expect.any(Buffer) });
    expect(() => parseClientCertificate(readFileSync(join(dir, 'client.crt'), 'utf8'))).toThrow(/no PRIVATE KEY/);
  });

  it.each(['PEM', 'PFX'])(
    'presents the %s certificate and speaks fetch: method, headers, body, status',
    async (kind) => {
      const tls = parseClientCertificate(kind === 'PEM' ? pki.clientPem : pki.clientPfxBase64);
      const certFetch = clientCertificateFetch(tls, { ca: pki.ca });
      const res = await certFetch(`${url}/iuws/comunicacion`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"usuario":"ñ"}',
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-echo-method')).toBe('POST');
      expect(await res.json()).toMatchObject({ echo: '{"usuario":"ñ"}' });
      expect(seen.at(-1)).toEqual({ path: '/iuws/comunicacion', clientCn: 'siex-gateway-client', authorized: true });
    },
  );

  it('without a certificate the server refuses the connection (the test server is as strict as SIEX)', async () => {
    const outcome = await new Promise<string>((resolve) => {
      const req = request(`${url}/x`, { ca: pki.ca }, (res) => resolve(`answered ${res.statusCode}`));
      req.on('error', (e: NodeJS.ErrnoException) => resolve(`refused: ${e.code ?? e.message}`));
      req.end();
    });
    expect(outcome).toMatch(/^refused/);
  });

  it('follows a redirect, presenting the certificate on the new request too', async () => {
    const certFetch = clientCertificateFetch(parseClientCertificate(pki.clientPfxBase64), { ca: pki.ca });
    const before = seen.length;
    const res = await certFetch(`${url}/moved`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(200);
    expect(res.redirected).toBe(true);
    expect(seen.slice(before).map((s) => [s.path, s.clientCn])).toEqual([
      ['/moved', 'siex-gateway-client'],
      ['/iuws/comunicacion', 'siex-gateway-client'],
    ]);
  });

  it('honours an AbortSignal', async () => {
    const certFetch = clientCertificateFetch(parseClientCertificate(pki.clientPem), { ca: pki.ca });
    await expect(certFetch(`${url}/x`, { signal: AbortSignal.abort() })).rejects.toThrow(/abort/i);
  });

  it('the IUWS client uses it when SIEX_CLIENT_CERT is set, and still checks the server: an unknown CA is unreachable', async () => {
    const settings = parseSettings({
      AzureWebJobsStorage: 'x',
      SIEX_BASE_URL: `${url}/iuws`,
      SIEX_USERNAME: 'u',
      SIEX_PASSWORD: 'p',
      SIEX_CLIENT_CERT: pki.clientPfxBase64,
      SIEX_MAX_ATTEMPTS: '1',
    });
    const before = seen.length;
    const error = await createIuwsClient(settings, [])
      .status('A')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IuwsError);
    expect(error).toMatchObject({ code: 'SIEX_UNREACHABLE', retryable: true });
    expect((error as Error).message).toMatch(/SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY|self.signed/i);
    expect(seen.length).toBe(before);
  });
});
