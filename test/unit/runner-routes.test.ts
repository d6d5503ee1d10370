import { RouteTable, fullTemplate } from '../../local/runner/routes';

/** Route templates and matching as the Functions host does them (local/runner/routes.ts). */

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
  });

  it('ignores a trailing slash', () => {
    const routes = table(['v1/siex/farms']);
    expect(routes.match('GET', '/v1/siex/farms/')?.target).toBe('v1/siex/farms');
    expect(routes.match('GET', '/v1/siex/farms')?.target).toBe('v1/siex/farms');
  });

  it('does not match a shorter or longer path', () => {
    const routes = table(['a/{b}']);
    expect(routes.match('GET', '/a')).toBeUndefined();
    expect(routes.match('GET', '/a/b/c')).toBeUndefined();
    expect(routes.match('GET', '/a//')).toBeUndefined();
  });

  it('decodes percent-encoded parameter values', () => {
    const routes = table(['files/{name}']);
    expect(routes.match('GET', '/files/a%20b%2Fc')?.params).toEqual({ name: 'a b/c' });
  });

  it('captures the rest of the path in a catch-all, empty allowed', () => {
    const routes = table(['static/{*rest}']);
    expect(routes.match('GET', '/static/a/b/c.txt')?.params).toEqual({ rest: 'a/b/c.txt' });
    expect(routes.match('GET', '/static')?.params).toEqual({});
    expect(table(['x/{**rest}']).match('GET', '/x/1/2')?.params).toEqual({ rest: '1/2' });
  });

  it('supports optional and defaulted trailing parameters', () => {
    expect(table(['jobs/{id?}']).match('GET', '/jobs')?.params).toEqual({});
    expect(table(['jobs/{id?}']).match('GET', '/jobs/9')?.params).toEqual({ id: '9' });
    expect(table(['page/{n=1}']).match('GET', '/page')?.params).toEqual({ n: '1' });
  });

  it('applies inline constraints', () => {
    const routes = table(['items/{id:int}', 'names/{n:alpha:minlength(2)}', 'g/{id:guid}', 'r/{code:regex(^[A-Z]+$)}']);
    expect(routes.match('GET', '/items/12')?.params).toEqual({ id: '12' });
    expect(routes.match('GET', '/items/-3')).toBeDefined();
    expect(routes.match('GET', '/items/1x')).toBeUndefined();
    expect(routes.match('GET', '/items/99999999999')).toBeUndefined();
    expect(routes.match('GET', '/names/ab')).toBeDefined();
    expect(routes.match('GET', '/names/a')).toBeUndefined();
    expect(routes.match('GET', '/g/3f2504e0-4f89-11d3-9a0c-0305e82c3301')).toBeDefined();
    expect(routes.match('GET', '/g/nope')).toBeUndefined();
    expect(routes.match('GET', '/r/ab')).toBeDefined(); // regex constraints are case-insensitive, as in the host
    expect(routes.match('GET', '/r/a1')).toBeUndefined();
  });

  it('matches segments that mix text and parameters', () => {
    const routes = table(['report/{id}.{format}']);
    expect(routes.match('GET', '/report/17.JSON')?.params).toEqual({ id: '17', format: 'JSON' });
    expect(routes.match('GET', '/report/17')).toBeUndefined();
  });

  it('prefers literal over constrained over plain parameter over catch-all, whatever the order', () => {
    const routes = table(['jobs/{*rest}', 'jobs/{name}', 'jobs/{id:int}', 'jobs/latest']);
    expect(routes.match('GET', '/jobs/latest')?.target).toBe('jobs/latest');
    expect(routes.match('GET', '/jobs/42')?.target).toBe('jobs/{id:int}');
    expect(routes.match('GET', '/jobs/abc')?.target).toBe('jobs/{name}');
    expect(routes.match('GET', '/jobs/a/b')?.target).toBe('jobs/{*rest}');
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

  it('refuses invalid templates with the template in the message', () => {
    expect(() => table(['a/{*rest}/b'])).toThrow(/a\/\{\*rest\}\/b/);
    expect(() => table(['a/{id:nonsense}'])).toThrow(/unknown route constraint/);
    expect(() => table(['a/{id}/{ID}'])).toThrow(/appears twice/);
    expect(() => table(['a/{unclosed'])).toThrow(/unclosed/);
  });

  it('lists routes most specific first', () => {
    const routes = table([['a/{x}', ['GET']], 'a/b']);
    expect(routes.describe().map((r) => `${r.methods} ${r.path}`)).toEqual(['* /a/b', 'GET /a/{x}']);
  });
});
