import { createHash } from 'node:crypto';
import { DomainError, violation } from '../domain/errors';

/**
 * Safe retries, whatever the transport: a request made under a key the client chose is answered once, and a repeat
 * gets the first answer again. The HTTP edge reads the key from the `Idempotency-Key` header (shared/http).
 */
export interface StoredResponse {
  requestHash: string;
  status: number;
  body: string;
  /** The ETag the first response carried, if any. */
  etag?: string;
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
  return createHash('sha256')
    .update(JSON.stringify(canonical(parts)))
    .digest('base64url');
}

/** A key seen before: the same request gets its first response again; another request under that key is a 422. */
export function replay(stored: StoredResponse, fingerprint: string): { status: number; body: string; etag?: string } {
  if (stored.requestHash === fingerprint) {
    return { status: stored.status, body: stored.body, ...(stored.etag ? { etag: stored.etag } : {}) };
  }
  throw new DomainError('The Idempotency-Key was already used for a different request.', [
    violation('IDEMPOTENCY_KEY_REUSED', 'header.Idempotency-Key', 'use a new key for a new request'),
  ]);
}
