import { hashKey, isHashedKey, keyMatches, keyProblem, newKey, storedKeyHash } from '../../shared/clients/keys';

/** Client keys (shared/clients/keys.ts): how a dataset writes them and what is stored. */
describe('client keys', () => {
  it('hashes a key as SHA-256 of its UTF-8 bytes, in lower-case hex', () => {
    // sha256("abc"), the FIPS 180-2 test vector
    expect(hashKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('stores the same hash for a key in clear and for the key written hashed', () => {
    const key = 'a-key-of-more-than-32-characters-0000';
    expect(storedKeyHash(key)).toBe(hashKey(key));
    expect(storedKeyHash(`sha256:${hashKey(key)}`)).toBe(hashKey(key));
    expect(isHashedKey(`sha256:${hashKey(key)}`)).toBe(true);
    expect(isHashedKey(key)).toBe(false);
  });

  it.each([
    ['a clear key of 32 characters', 'k'.repeat(32), undefined],
    ['a clear key of 31 characters', 'k'.repeat(31), 'a key must be at least 32 characters'],
    ['a hash', `sha256:${'0a'.repeat(32)}`, undefined],
    ['a hash in upper case', `sha256:${'0A'.repeat(32)}`, 'a hashed key is sha256: and 64 lower-case hex digits'],
    ['a hash one digit short', `sha256:${'0'.repeat(63)}`, 'a hashed key is sha256: and 64 lower-case hex digits'],
    [
      'a clear key that looks like a hash',
      `sha256:${'x'.repeat(64)}`,
      'a hashed key is sha256: and 64 lower-case hex digits',
    ],
  ])('judges %s', (_, key, problem) => {
    expect(keyProblem(key)).toBe(problem);
  });

  it('makes a new key of 256 random bits, base64url, with its hash as the dataset writes it', () => {
    const bytes = Buffer.from([...Array(32).keys()]);
    const { key, hashed } = newKey((n) => bytes.subarray(0, n));
    expect(key).toBe(bytes.toString('base64url'));
    expect(key).toHaveLength(43);
    expect(keyProblem(key)).toBeUndefined();
    expect(hashed).toBe(`sha256:${hashKey(key)}`);
    expect(keyMatches(key, storedKeyHash(hashed))).toBe(true);
    expect(newKey().key).not.toBe(newKey().key);
  });
});
