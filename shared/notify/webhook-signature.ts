import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signature of a webhook delivery, in the `Siex-Gateway-Signature` header: `t=<unix seconds>,v1=<hex>`, where
 * v1 is HMAC-SHA256 with the client's signing secret over `<t>.<body>` (the body as sent, byte for byte). Signing the
 * time with the body lets a receiver refuse a delivery replayed later than it tolerates. While a rotated secret's
 * overlap runs the header carries one v1 per secret, the new one first (`t=…,v1=<new>,v1=<old>`), so a receiver still
 * configured with the old secret verifies as before: a receiver accepts a header when any v1 matches its secret.
 */
export const SIGNATURE_HEADER = 'Siex-Gateway-Signature';

function mac(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
}

export function signatureHeader(secrets: string | readonly string[], body: string, nowMs: number): string {
  const t = Math.floor(nowMs / 1000);
  return [`t=${t}`, ...[secrets].flat().map((s) => `v1=${mac(s, t, body)}`)].join(',');
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
  const parts = header.split(',').map((p) => {
    const i = p.indexOf('=');
    return [p.slice(0, i).trim(), p.slice(i + 1).trim()] as const;
  });
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(nowMs / 1000 - t) > toleranceSeconds) return false;
  const expected = Buffer.from(mac(secret, t, body), 'hex');
  return parts.some(
    ([k, v]) => k === 'v1' && /^[0-9a-f]{64}$/.test(v) && timingSafeEqual(expected, Buffer.from(v, 'hex')),
  );
}
