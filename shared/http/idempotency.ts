import { createHash } from 'node:crypto';
import { HttpRequest } from '@azure/functions';
import { ProblemError, violation } from './problem';

export interface StoredResponse {
  requestHash: string;
  status: number;
  body: string;
}

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
const KEY_RE = /^[\x21-\x7e]{1,200}$/;

/** The request's Idempotency-Key, or null; a malformed one is a 400 rather than silently ignored. */
export function idempotencyKey(request: HttpRequest): string | null {
  const key = request.headers.get(IDEMPOTENCY_HEADER);
  if (key === null) return null;
  if (!KEY_RE.test(key)) {
    throw new ProblemError(400, 'The Idempotency-Key header is not valid.', [
      violation('INVALID_VALUE', `header.${IDEMPOTENCY_HEADER}`, '1 to 200 visible ASCII characters'),
    ]);
  }
  return key;
}

/** Keys are per client: two clients choosing the same key never see each other's responses. */
export function idempotencyHash(clientId: string, key: string): string {
  return createHash('sha256').update(`${clientId}\n${key}`).digest('base64url');
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** A fingerprint of what the request asks for, independent of JSON key order and spacing. */
export function requestFingerprint(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(canonical(parts))).digest('base64url');
}

/** A key seen before: the same request gets its first response again; another request under that key is a 422. */
export function replay(stored: StoredResponse, fingerprint: string): { status: number; body: string } {
  if (stored.requestHash === fingerprint) return { status: stored.status, body: stored.body };
  throw new ProblemError(422, 'The Idempotency-Key was already used for a different request.', [
    violation('IDEMPOTENCY_KEY_REUSED', 'header.Idempotency-Key', 'use a new key for a new request'),
  ]);
}
