import { RouteTable, fullTemplate } from '../../local/runner/routes';

/** Route templates and matching as the Functions host does them, for literal, {name} and {*name} segments (local/runner/routes.ts). */

function table(templates: (string | [string, string[]])[], prefix = '') {
  return new RouteTable(
    templates.map((t) =>
      typeof t === 'string' ? { template: t, target: t } : { template: t[0], methods: t[1], target: t[0] },
    ),
    prefix,
  );
}

describe('route matching', () => {
  it('matches literal segments case-insensitively and keeps parameter values as sent', () => {
    const routes = table(['v1/siex/farms/{farmId}']);
    expect(routes.match('GET', '/V1/SIEX/Farms/AbC')).toEqual({
      target: 'v1/siex/farms/{farmId}',
      params: { farmId: 'AbC' },
    });
    expect(table(['v1/entities/siex/exportCUE']).match('POST', '/v1/entities/siex/exportcue')).toEqual({
      target: 'v1/entities/siex/exportCUE',
      params: {},
    });
  });

  it('ignores a trailing slash', () => {
    const routes = table(['v1/siex/farms']);
    expect(routes.match('GET', '/v1/siex/farms/')?.target).toBe('v1/siex/farms');
    expect(routes.match('GET', '/v1/siex/farms//')?.target).toBe('v1/siex/farms');
    expect(routes.match('GET', '/v1/siex/farms')?.target).toBe('v1/siex/farms');
  });

  it('does not match a shorter or longer path, or an empty parameter', () => {
    const routes = table(['a/{b}']);
    expect(routes.match('GET', '/a')).toBeUndefined();
    expect(routes.match('GET', '/a/b/c')).toBeUndefined();
    expect(routes.match('GET', '/a//')).toBeUndefined();
    expect(table(['a/{b}/c']).match('GET', '/a//c')).toBeUndefined();
    expect(table(['v1/siex/farms']).match('GET', '/v1/siex/farm')).toBeUndefined();
  });

  it('decodes percent-encoded segments, leaving a malformed escape as sent', () => {
    const routes = table(['files/{name}', 'v1/openapi.json']);
    expect(routes.match('GET', '/files/a%20b%2Fc')?.params).toEqual({ name: 'a b/c' });
    expect(routes.match('GET', '/files/100%')?.params).toEqual({ name: '100%' });
    expect(routes.match('GET', '/v1/openapi%2Ejson')?.target).toBe('v1/openapi.json');
  });

  it('prefers a literal segment over a parameter, whatever the registration order', () => {
    const routes = table(['jobs/{name}/{part}', 'jobs/{name}/latest', 'jobs/latest/{part}', 'jobs/latest/latest']);
    expect(routes.match('GET', '/jobs/latest/latest')?.target).toBe('jobs/latest/latest');
    expect(routes.match('GET', '/jobs/latest/x')?.target).toBe('jobs/latest/{part}');
    expect(routes.match('GET', '/jobs/x/latest')?.target).toBe('jobs/{name}/latest');
    expect(routes.match('GET', '/jobs/x/y')).toEqual({
      target: 'jobs/{name}/{part}',
      params: { name: 'x', part: 'y' },
    });
    // The first segment where they differ decides, as in the host.
    expect(table(['a/{x}/c', 'a/b/{y}']).match('GET', '/a/b/c')?.target).toBe('a/b/{y}');
  });

  it('keeps registration order between equally specific routes', () => {
    const routes = table(['x/{a}', 'x/{b}']);
    expect(routes.match('GET', '/x/1')?.target).toBe('x/{a}');
  });

  it('filters on methods, case-insensitively, falling through to another route', () => {
    const routes = table([
      ['v1/jobs', ['POST']],
      ['v1/{anything}', ['GET']],
    ]);
    expect(routes.match('post', '/v1/jobs')?.target).toBe('v1/jobs');
    expect(routes.match('GET', '/v1/jobs')?.target).toBe('v1/{anything}');
    expect(routes.match('DELETE', '/v1/jobs')).toBeUndefined();
  });

  it('treats no methods as any method', () => {
    expect(table(['open']).match('PATCH', '/open')).toBeDefined();
  });

  it('applies the route prefix from host.json', () => {
    const routes = table(['hello'], 'api');
    expect(routes.match('GET', '/api/hello')).toBeDefined();
    expect(routes.match('GET', '/hello')).toBeUndefined();
    expect(fullTemplate('/api/', '/hello/')).toBe('api/hello');
    expect(fullTemplate('', 'v1/openapi.json')).toBe('v1/openapi.json');
  });

  it('serves the root path when prefix and route are empty', () => {
    expect(table([''], '').match('GET', '/')).toBeDefined();
  });

  it('refuses templates it cannot serve as the host would, naming them', () => {
    for (const template of ['items/{id:int}', 'jobs/{id?}', 'page/{n=1}', 'static/{*rest}/x', 'report/{id}.json']) {
      expect(() => table([template])).toThrow(`route "${template}": "${template.split('/')[1]}" is not supported`);
    }
    expect(() => table(['a/{unclosed'])).toThrow('route "a/{unclosed": "{unclosed" is not supported');
    expect(() => table(['a/{id}/{ID}'])).toThrow('route "a/{id}/{ID}": parameter "id" appears twice');
    expect(() => table(['a//b'])).toThrow('route "a//b": empty segment');
  });

  it('serves a last-segment catch-all below every other route, with the rest of the path, none included', () => {
    const routes = table(['{*path}', 'v1/items/{id}', 'v1/items', ['v1/{*rest}', ['POST']]]);
    expect(routes.match('GET', '/v1/items/7')).toEqual({ target: 'v1/items/{id}', params: { id: '7' } });
    expect(routes.match('GET', '/v1/items')?.target).toBe('v1/items');
    expect(routes.match('GET', '/v1/items/7/history')).toEqual({
      target: '{*path}',
      params: { path: 'v1/items/7/history' },
    });
    expect(routes.match('POST', '/v1/a%20b/c')).toEqual({ target: 'v1/{*rest}', params: { rest: 'a b/c' } });
    expect(routes.match('DELETE', '/')).toEqual({ target: '{*path}', params: { path: '' } });
    expect(table(['a/{*rest}', 'a']).match('GET', '/a')?.target).toBe('a');
    expect(() => table(['{*a}/{A}'])).toThrow('"{*a}" is not supported');
  });

  it('lists routes most specific first', () => {
    const routes = table([['a/{x}', ['GET']], 'a/b']);
    expect(routes.describe().map((r) => `${r.methods} ${r.path}`)).toEqual(['* /a/b', 'GET /a/{x}']);
  });
});
