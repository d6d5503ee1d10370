import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { requestFingerprint } from '../../shared/idempotency/idempotency';

/**
 * Idempotency keys are stored with the fingerprint of their request: a key stored before an upgrade must match the
 * same request after it, so the fingerprint's format may never change. These pin it to the one every stored key was
 * made with: keys sorted through an object (array-index keys first, in numeric order), then JSON.stringify.
 */
function storedFormat(parts: unknown): string {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical);
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.keys(value)
          .sort()
          .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
      );
    }
    return value;
  };
  return createHash('sha256')
    .update(JSON.stringify(canonical(parts)))
    .digest('base64url');
}

describe('request fingerprints (idempotency)', () => {
  it('gives the fingerprints stored before, for registration, amendment, deletion and export requests', () => {
    const stored: [unknown, string][] = [
      [
        {
          agrifarmId: 'urn:ngsi-ld:AgriFarm:12',
          exported: false,
          body: {
            dateApplication: '2026-03-01T10:00:00+01:00',
            idcp: [3, 1, 2],
            subtype: { code: 'ES-00123' },
            regionalAttributes: [{ b: 1, 10: 'diez', 2: 'dos', ñ: null, a: [] }],
            dose: 1.5,
            note: 'A "B" \\ é \ud83c\udf47',
          },
        },
        'RPrHkyihFW5gZT6Snn6XNOGAO0YBkDdsuO6E5rCvIIQ',
      ],
      [
        {
          operation: 'amend',
          agrifarmId: 'urn:ngsi-ld:AgriFarm:12',
          id: 42,
          ifMatch: 'W/"7"',
          patch: { dose: null, subtype: { code: 'ES-1' } },
        },
        'I0mBzIUhLSDsmalqacYBYypQTZuw5Z-Lxklc3LVm9rs',
      ],
      [
        { operation: 'delete', agrifarmId: 'urn:ngsi-ld:AgriFarm:12', id: 42, ifMatch: '*' },
        'vn6pWGrs4vCQM2czM3TzMkESLJ3WKKAdh-Aofg9fkLc',
      ],
      [
        {
          query: { agrifarmId: 'urn:ngsi-ld:AgriFarm:9' },
          body: { ids: [5, 4], email: 'a@b.es', emptyObject: {}, zero: -0, big: 1e21, tiny: 5e-7 },
        },
        'NsYfzCDsKCsrkaCGEcjAKucVXptuySNvxpRLM1ZSUC0',
      ],
    ];
    for (const [request, hash] of stored) expect(requestFingerprint(request)).toBe(hash);
  });

  it('matches the stored format on any JSON body, whatever its keys (array indexes, __proto__, any text)', () => {
    // Any UTF-16 code unit, lone surrogates included (JSON.stringify escapes those).
    const text = (maxLength: number) =>
      fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength });
    const key = fc.oneof(
      fc.string({ maxLength: 6 }),
      text(6),
      fc.nat().map(String),
      fc.constantFrom('__proto__', '01', '-1', '1.5', '4294967294', '4294967295', ''),
    );
    const { json } = fc.letrec((tie) => ({
      json: fc.oneof(
        { depthSize: 'small' },
        fc.constant(null),
        fc.boolean(),
        fc.double(),
        text(8),
        fc.array(tie('json'), { maxLength: 4 }),
        fc
          .array(fc.tuple(key, tie('json')), { maxLength: 6 })
          // As JSON.parse builds them: own data properties, __proto__ included.
          .map((entries) => Object.fromEntries(entries)),
      ),
    }));
    fc.assert(fc.property(json, (body) => requestFingerprint(body) === storedFormat(body)));
  });

  it('does not depend on key order or spacing', () => {
    expect(requestFingerprint(JSON.parse('{"b": {"y": 1, "x": [2, {"q": 0, "p": 1}]}, "a": true}'))).toBe(
      requestFingerprint(JSON.parse('{"a":true,"b":{"x":[2,{"p":1,"q":0}],"y":1}}')),
    );
  });
});
