import { HttpRequest } from '@azure/functions';
import { parseJsonBody } from '../../shared/http/body';
import { DomainError } from '../../shared/domain/errors';

/**
 * What a JSON body may hold (shared/http/body.ts): lone surrogates and the object machinery's member names are
 * refused at their path, every one listed (issue 36); NUL, U+2028 and surrogate pairs are text like any other.
 */
const request = new HttpRequest({
  method: 'POST',
  url: 'http://localhost/x',
  headers: { 'Content-Type': 'application/json' },
});

/** The body's violations as `code path`, or its parsed value when it has none. */
function judged(text: string): unknown {
  try {
    return parseJsonBody(request, Buffer.from(text, 'utf8'));
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    return e.violations.map((v) => `${v.code} ${v.path}`);
  }
}

describe('lone surrogates', () => {
  it.each([
    ['a high one alone', '{"detail":"a\\ud800b"}', 'LONE_SURROGATE body.detail'],
    ['a low one alone', '{"detail":"\\uDC00"}', 'LONE_SURROGATE body.detail'],
    ['a high one last', '{"detail":"abc\\ud83d"}', 'LONE_SURROGATE body.detail'],
    ['a pair the wrong way round', '{"detail":"\\ude00\\ud83d"}', 'LONE_SURROGATE body.detail'],
    ['a high one before a whole character', '{"detail":"\\ud800😀"}', 'LONE_SURROGATE body.detail'],
    ['one deep in arrays', '{"machine":[{"ref":"ok"},{"ref":"\\udfff"}]}', 'LONE_SURROGATE body.machine[1].ref'],
    ['one at the top', '"\\ud800"', 'LONE_SURROGATE body'],
  ])('are 400 at their path: %s', (_, text, expected) => {
    expect(judged(text)).toEqual([expected]);
  });

  it('in a member name are refused at the member, the surrogate written as an escape', () => {
    const res = judged('{"applicator":{"a\\ud800":1}}');
    expect(res).toEqual(['LONE_SURROGATE body.applicator.a\\uD800']);
  });

  it('are every one listed, beside reserved names', () => {
    expect(judged('{"a":"\\ud800","b":["\\udc00",{"__proto__":{"c":"\\ud801"}}]}')).toEqual([
      'LONE_SURROGATE body.a',
      'LONE_SURROGATE body.b[0]',
      'RESERVED_MEMBER_NAME body.b[1].__proto__',
      'LONE_SURROGATE body.b[1].__proto__.c',
    ]);
  });

  it('say which surrogate and where, without echoing the text', () => {
    try {
      parseJsonBody(request, Buffer.from(`{"detail":"${'x'.repeat(5000)}\\ud800"}`));
      throw new Error('accepted');
    } catch (e) {
      const [only] = (e as DomainError).violations;
      expect(only?.message).toBe('a lone surrogate (\\uD800) at character 5001: not a Unicode character');
    }
  });

  it('leave whole characters alone: escaped pairs, NUL, U+2028, U+FFFF and astral text as sent', () => {
    const text = '{"a":"\\ud83d\\ude00","b":"\\u0000","c":"\\u2028 \u2028","d":"\\uffff","e":"😀 Viña"}';
    expect(judged(text)).toEqual({ a: '😀', b: '\u0000', c: '\u2028 \u2028', d: '\uffff', e: '😀 Viña' });
  });
});

describe('reserved member names', () => {
  it.each([
    ['__proto__ at the top (a merge patch)', '{"__proto__":{"isAdmin":true}}', 'RESERVED_MEMBER_NAME body.__proto__'],
    ['constructor nested', '{"crop":{"constructor":{"prototype":1}}}', 'RESERVED_MEMBER_NAME body.crop.constructor'],
    ['prototype in an array', '[{"prototype":null}]', 'RESERVED_MEMBER_NAME body[0].prototype'],
    ['__proto__ spelt with escapes', '{"\\u005f_proto\\u005F_":{}}', 'RESERVED_MEMBER_NAME body.__proto__'],
  ])('are 400 at their path: %s', (_, text, expected) => {
    expect(judged(text)).toContainEqual(expected);
  });

  it('lists a name nested under another at both paths', () => {
    expect(judged('{"crop":{"constructor":{"prototype":1}}}')).toEqual([
      'RESERVED_MEMBER_NAME body.crop.constructor',
      'RESERVED_MEMBER_NAME body.crop.constructor.prototype',
    ]);
  });

  it('are names only: the same words as values, or spelt otherwise, are text like any other', () => {
    const text = '{"detail":"constructor prototype __proto__","Constructor":1,"proto":2,"__proto":3}';
    expect(judged(text)).toEqual({ detail: 'constructor prototype __proto__', Constructor: 1, proto: 2, __proto: 3 });
  });
});
