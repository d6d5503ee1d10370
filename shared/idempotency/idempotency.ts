import { createHash } from 'node:crypto';
import { configure } from 'safe-stable-stringify';
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

/**
 * Keys in the order the fingerprints stored so far were made with (sorted, then put in an object, where array-index
 * keys such as "2" and "10" come first, in numeric order): a key stored before an upgrade must still match its request.
 */
function storedKeyOrder(a: string, b: string): number {
  const ai = arrayIndex(a);
  const bi = arrayIndex(b);
  if (ai !== null || bi !== null) return ai === null ? 1 : bi === null ? -1 : ai - bi;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** ECMAScript's array index: the canonical decimal text of an integer below 2^32 - 1. */
function arrayIndex(key: string): number | null {
  const n = Number(key);
  return Number.isInteger(n) && n >= 0 && n < 2 ** 32 - 1 && String(n) === key ? n : null;
}

const canonicalJson = configure({ deterministic: storedKeyOrder });

/** A fingerprint of what the request asks for, independent of JSON key order and spacing. */
export function requestFingerprint(parts: unknown): string {
  return createHash('sha256')
    .update(canonicalJson(parts) as string)
    .digest('base64url');
}

/** A request's Idempotency-Key as it is stored (per client), and the fingerprint a repeat under it must match. */
export interface RequestKey {
  hash: string;
  requestHash: string;
}

/** The key a request was sent under (null: none, and nothing is fingerprinted), with what it asks for. */
export function requestKey(clientId: string, key: string | null, request: unknown): RequestKey | null {
  return key ? { hash: idempotencyHash(clientId, key), requestHash: requestFingerprint(request) } : null;
}

/** A key seen before must name the same request (its fingerprint): another request under it is a 422. */
export function checkSameRequest(storedHash: string, fingerprint: string): void {
  if (storedHash === fingerprint) return;
  throw new DomainError('The Idempotency-Key was already used for a different request.', [
    violation('IDEMPOTENCY_KEY_REUSED', 'header.Idempotency-Key', 'use a new key for a new request'),
  ]);
}
