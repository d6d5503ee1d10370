import { Agent, request } from 'node:https';
import { IncomingHttpHeaders } from 'node:http';

/**
 * A `fetch` over node:https that presents a TLS client certificate. Node 20's global fetch takes a certificate only
 * through an undici `dispatcher` built by the same undici it bundles, which Node does not export (and the `undici`
 * package is not installed); node:https takes one directly through an Agent. Covers what the IUWS client uses: string
 * bodies, headers, an AbortSignal, and the whole response body read into memory.
 */

export type TlsClientOptions = { pfx: Buffer } | { cert: string; key: string };

/**
 * Reads a client certificate as Key Vault hands it to an app setting: PEM text holding the certificate (chain) and its
 * private key (a certificate created with content type application/x-pem-file), or base64 PKCS#12 (imported as PFX;
 * Key Vault stores it without a password). Literal `\n` sequences are taken as newlines, as pasted into a setting.
 */
export function parseClientCertificate(text: string): TlsClientOptions {
  const value = text.trim().replace(/\\n/g, '\n');
  if (value.includes('-----BEGIN')) {
    const blocks = value.match(/-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g) ?? [];
    const cert = blocks.filter((b) => /^-----BEGIN CERTIFICATE-----/.test(b));
    const key = blocks.find((b) => /^-----BEGIN (?:RSA |EC |ENCRYPTED )?PRIVATE KEY-----/.test(b));
    if (cert.length === 0) throw new Error('the PEM client certificate has no CERTIFICATE block');
    if (!key)
      throw new Error('the PEM client certificate has no PRIVATE KEY block (put the key after the certificate)');
    return { cert: cert.join('\n'), key };
  }
  if (!/^[A-Za-z0-9+/=\s]+$/.test(value)) throw new Error('the client certificate is neither PEM nor base64 PFX');
  return { pfx: Buffer.from(value.replace(/\s+/g, ''), 'base64') };
}

function responseHeaders(raw: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}

/** `fetch` through a keep-alive https Agent with the given client certificate (and extra trusted CAs, for tests). */
export function createHttpsFetch(tls: TlsClientOptions, options: { ca?: string | Buffer } = {}): typeof fetch {
  const agent = new Agent({ keepAlive: true, ...tls, ...(options.ca ? { ca: options.ca } : {}) });
  const httpsFetch = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    if (url.protocol !== 'https:')
      return Promise.reject(new TypeError(`a client certificate needs an https URL, not ${url.protocol}`));
    if (init.body !== undefined && init.body !== null && typeof init.body !== 'string') {
      return Promise.reject(new TypeError('this fetch sends string bodies only'));
    }
    const body = init.body ?? undefined;
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => (headers[name] = value));
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    return new Promise<Response>((resolve, reject) => {
      const req = request(
        url,
        { method: init.method ?? 'GET', headers, agent, signal: init.signal ?? undefined },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const status = res.statusCode ?? 502;
            const nullBody = status === 204 || status === 205 || status === 304;
            resolve(
              new Response(nullBody ? null : Buffer.concat(chunks), {
                status,
                statusText: res.statusMessage,
                headers: responseHeaders(res.headers),
              }),
            );
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  };
  return httpsFetch;
}
