import { HttpRequest } from '@azure/functions';
import { cacheableReply, ifNoneMatchHolds } from '../../shared/http/conditional';

/** If-None-Match on the catalogue answers (issue 14, item 5), as RFC 9110 words it for GET. */
describe('If-None-Match', () => {
  const etag = '"abc"';

  it.each([
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x", "abc"', true],
    ['"x",W/"abc" ', true],
    ['*', true],
    [' * ', true],
    ['"abcd"', false],
    ['"ab"', false],
    ['abc', false],
    ['', false],
    ['"x", "y"', false],
  ])('%p names "abc": %p', (header, holds) => {
    expect(ifNoneMatchHolds(header, etag)).toBe(holds);
  });

  it('is not there: the answer is sent', () => {
    expect(ifNoneMatchHolds(null, etag)).toBe(false);
  });
});

describe('a cacheable reply', () => {
  const request = (headers: Record<string, string> = {}) =>
    new HttpRequest({ method: 'GET', url: 'http://localhost/v1/catalog/products?crop=102', headers });
  let renders = 0;
  const answer = {
    tag: 'abc',
    maxAgeSeconds: 300,
    render: () => {
      renders++;
      return [{ code: 'ES-11179' }];
    },
  };

  it('is 200 with the answer, its strong ETag, Cache-Control and the other headers', () => {
    renders = 0;
    expect(cacheableReply(request(), answer, { 'X-Total-Count': '1' })).toEqual({
      status: 200,
      json: [{ code: 'ES-11179' }],
      headers: { ETag: '"abc"', 'Cache-Control': 'private, max-age=300', 'X-Total-Count': '1' },
    });
    expect(renders).toBe(1);
  });

  it('is 304 with no body and the same headers when If-None-Match names it, without rendering the answer', () => {
    renders = 0;
    expect(cacheableReply(request({ 'If-None-Match': '"abc"' }), answer, { 'X-Total-Count': '1' })).toEqual({
      status: 304,
      empty: true,
      headers: { ETag: '"abc"', 'Cache-Control': 'private, max-age=300', 'X-Total-Count': '1' },
    });
    expect(renders).toBe(0);
    expect(cacheableReply(request({ 'If-None-Match': '"older"' }), answer).status).toBe(200);
  });
});
