import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signature of a webhook delivery, in the `Siex-Gateway-Signature` header: `t=<unix seconds>,v1=<hex>`, where
 * v1 is HMAC-SHA256 with the client's signing secret over `<t>.<body>` (the body as sent, byte for byte). Signing the
 * time with the body lets a receiver refuse a delivery replayed later than it tolerates.
 */
export const SIGNATURE_HEADER = 'Siex-Gateway-Signature';

function mac(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
}

export function signatureHeader(secret: string, body: string, nowMs: number): string {
  const t = Math.floor(nowMs / 1000);
  return `t=${t},v1=${mac(secret, t, body)}`;
}

/**
 * Whether a header signs this body with this secret, at most `toleranceSeconds` from `nowMs`: what a receiver checks
 * (the README shows the same in Node and C#).
 */
export function verifySignature(
  secret: string,
  header: string,
  body: string,
  nowMs: number,
  toleranceSeconds = 300,
): boolean {
  const parts = new Map(
    header.split(',').map((p) => {
      const i = p.indexOf('=');
      return [p.slice(0, i).trim(), p.slice(i + 1).trim()] as const;
    }),
  );
  const t = Number(parts.get('t'));
  const v1 = parts.get('v1') ?? '';
  if (!Number.isInteger(t) || Math.abs(nowMs / 1000 - t) > toleranceSeconds || !/^[0-9a-f]{64}$/.test(v1)) return false;
  return timingSafeEqual(Buffer.from(mac(secret, t, body), 'hex'), Buffer.from(v1, 'hex'));
}
