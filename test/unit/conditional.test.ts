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
    new HttpRequest({
      method: 'GET',
      url: 'http://localhost/v1/catalog/products?crop=102&page=1&page_size=1',
      headers,
    });
  let bodies = 0;
  const answer = {
    tag: 'abc',
    maxAgeSeconds: 300,
    body: () => {
      bodies++;
      return { json: '[{"code":"ES-11179"}]', total: 2, page: { number: 1, size: 1, pages: 2 } };
    },
  };

  it('is 200 with the answer as rendered, its strong ETag, Cache-Control and the paging headers of a list', () => {
    bodies = 0;
    const reply = cacheableReply(request(), answer);
    expect(reply).toMatchObject({ status: 200, rawJson: '[{"code":"ES-11179"}]' });
    expect(reply.headers).toMatchObject({
      ETag: '"abc"',
      'Cache-Control': 'private, max-age=300',
      'X-Total-Count': '2',
      'X-Page': '1',
      'X-Total-Pages': '2',
    });
    expect(bodies).toBe(1);
    const one = cacheableReply(request(), { ...answer, body: () => ({ json: '{}' }) });
    expect(one.headers).toEqual({ ETag: '"abc"', 'Cache-Control': 'private, max-age=300' });
  });

  it('is 304 with no body, its ETag and Cache-Control when If-None-Match names it, without working out the answer', () => {
    bodies = 0;
    expect(cacheableReply(request({ 'If-None-Match': '"abc"' }), answer)).toEqual({
      status: 304,
      empty: true,
      headers: { ETag: '"abc"', 'Cache-Control': 'private, max-age=300' },
    });
    expect(bodies).toBe(0);
    expect(cacheableReply(request({ 'If-None-Match': '"older"' }), answer).status).toBe(200);
  });
});
