import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Client keys are long random secrets (at least 32 characters), so an unsalted SHA-256 is a sound way to store them:
 * nothing to brute-force, and the SID hash doubles as the row key the client is found by.
 */
export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Constant-time comparison of a presented key with a stored hash. */
export function keyMatches(presented: string, storedHash: string): boolean {
  const a = Buffer.from(hashKey(presented), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
