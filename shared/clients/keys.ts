import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Client keys are long random secrets (at least 32 characters; `newKey` draws 256 bits), so an unsalted SHA-256 is a
 * sound way to store them: a salt or a slow hash defends guessable passwords against a dictionary, and there is no
 * dictionary for 2^256 random values, so what protects a key is SHA-256's preimage resistance alone. Unsalted is also
 * what lets the SID hash be the row key the client is found by: a per-client salt could not be known before the
 * client is. The same hash is what a dataset may carry instead of the key (`sha256:` and the 64 hex digits).
 */
export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** How a dataset writes a key's hash instead of the key: the scheme, then the SHA-256 of the key's UTF-8 bytes in hex. */
const HASHED_KEY_PREFIX = 'sha256:';
const HASHED_KEY = /^sha256:[0-9a-f]{64}$/;

/** Whether a dataset's key is written as its hash (`sha256:…`) rather than in clear. */
export function isHashedKey(key: string): boolean {
  return key.startsWith(HASHED_KEY_PREFIX);
}

/** Why a dataset's key is not a usable one, or undefined when it is. */
export function keyProblem(key: string): string | undefined {
  if (isHashedKey(key))
    return HASHED_KEY.test(key) ? undefined : 'a hashed key is sha256: and 64 lower-case hex digits';
  return key.length < 32 ? 'a key must be at least 32 characters' : undefined;
}

/** The stored hash of a dataset's key, whichever way the dataset writes it. */
export function storedKeyHash(key: string): string {
  return isHashedKey(key) ? key.slice(HASHED_KEY_PREFIX.length) : hashKey(key);
}

/** A fresh key (256 random bits, base64url: 43 characters) and its hash as a dataset writes it. */
export function newKey(random: (bytes: number) => Buffer = randomBytes): { key: string; hashed: string } {
  const key = random(32).toString('base64url');
  return { key, hashed: `${HASHED_KEY_PREFIX}${hashKey(key)}` };
}

/** Constant-time comparison of a presented key with a stored hash. */
export function keyMatches(presented: string, storedHash: string): boolean {
  const a = Buffer.from(hashKey(presented), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
