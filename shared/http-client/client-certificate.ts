import { createSecureContext, TLSSocket } from 'node:tls';
import type * as Undici from 'undici';

/**
 * The TLS client certificate SIEX demands: read from its setting, and presented by a `fetch` whose connections come
 * from an undici Agent built with it. Node's global fetch is undici too, but takes a certificate only through a
 * dispatcher, and mixing the bundled undici with the package's across Node versions is not guaranteed to work, so
 * the package's own fetch and Agent are used together.
 */

type TlsClientOptions = { pfx: Buffer } | { cert: string; key: string };

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

/**
 * When the certificate stops being valid (its notAfter), read from the TLS context it is presented with, so PEM and
 * PFX alike are read by OpenSSL itself and no certificate parser is needed.
 */
export function certificateNotAfter(tls: TlsClientOptions): Date {
  const socket = new TLSSocket(null as never, { secureContext: createSecureContext(tls) });
  try {
    const cert = socket.getCertificate();
    const validTo = cert && 'valid_to' in cert ? cert.valid_to : undefined;
    if (!validTo) throw new Error('the client certificate has no validity period');
    return new Date(validTo);
  } finally {
    socket.destroy();
  }
}

/**
 * Kept out of the deployable bundle and loaded on first use, like the Azure SDKs (shared/store/azure-sdk.ts): only a
 * gateway configured with a certificate needs it, and no function's registration should pay for loading it.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the lazy load described above
const undici = () => require('undici') as typeof Undici;

/**
 * `fetch` over keep-alive connections that present the client certificate (and trust `ca` besides the usual roots,
 * for tests). The Agent is made on the first call, so a client that never calls SIEX never loads undici.
 */
export function clientCertificateFetch(tls: TlsClientOptions, options: { ca?: string | Buffer } = {}): typeof fetch {
  let agent: Undici.Agent | undefined;
  return (input, init) => {
    const { Agent, fetch: undiciFetch } = undici();
    agent ??= new Agent({ connect: { ...tls, ...(options.ca ? { ca: options.ca } : {}) } });
    return undiciFetch(input, { ...init, dispatcher: agent });
  };
}
