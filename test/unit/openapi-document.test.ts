import Ajv2020 from 'ajv/dist/2020';
import { contracts } from '../../shared/app/contracts';
import { ErrorCode } from '../../shared/domain/errors';
import { ERROR_CODES, HTTP_STATUS } from '../../shared/app/error-codes';
import { buildOpenApiDocument } from '../../shared/openapi/document';

type Node = Record<string, any>;

const doc = buildOpenApiDocument() as Node;

/** Every `$ref` string in the document, with where it was found. */
function refs(node: unknown, at = '#'): { ref: string; at: string }[] {
  if (Array.isArray(node)) return node.flatMap((n, i) => refs(n, `${at}/${i}`));
  if (node && typeof node === 'object') {
    return Object.entries(node).flatMap(([k, v]) =>
      k === '$ref' && typeof v === 'string'
        ? [{ ref: v, at }]
        : refs(v, `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`),
    );
  }
  return [];
}

function resolve(ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!node || typeof node !== 'object' || !(key in node)) return undefined;
    node = (node as Node)[key];
  }
  return node;
}

describe('OpenAPI document', () => {
  const operations = () =>
    Object.entries(doc.paths as Node).flatMap(([path, methods]) =>
      Object.entries(methods as Node).map(([method, op]) => ({ path, method, op: op as Node })),
    );

  it('groups every operation under one of its five declared tags', () => {
    expect(doc.tags.map((t: Node) => t.name)).toEqual(['farms', 'records', 'export', 'catalogue', 'webhooks']);
    for (const { path, method, op } of operations())
      expect({ path, method, tags: op.tags }).toEqual({
        path,
        method,
        tags: [expect.stringMatching(/^(farms|records|export|catalogue|webhooks)$/)],
      });
    const tagOf = (path: string, method: string) => (doc.paths as Node)[path][method].tags[0];
    expect(tagOf('/v1/siex/farms', 'get')).toBe('farms');
    expect(tagOf('/v1/entities/agriphytosanitarys/{id}', 'patch')).toBe('records');
    expect(tagOf('/api-service/v1/entities/jobresult', 'get')).toBe('export');
    expect(tagOf('/v1/catalog/siex/{name}', 'get')).toBe('catalogue');
  });

  it("marks the spec's second spellings deprecated, under ids that name what they are an alias of", () => {
    const deprecated = operations()
      .filter(({ op }) => op.deprecated)
      .map(({ path, op }) => [op.operationId, path]);
    expect(deprecated).toEqual([
      ['exportCueAlias', '/v1/siex/exportCUE'],
      ['jobStatusAlias', '/v1/entities/jobstatus'],
      ['jobResultAlias', '/v1/entities/jobresult'],
    ]);
    expect(doc.paths['/v1/siex/exportCUE'].post.description).toMatch(
      /^Deprecated spelling of `POST \/v1\/entities\/siex\/exportCUE`/,
    );
    expect(operations().filter(({ op }) => /Alt\d/.test(op.operationId))).toEqual([]);
  });

  it('is OpenAPI 3.1 with info, servers and both key headers as security schemes', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.title).toEqual(expect.any(String));
    expect(doc.info.version).toEqual(expect.any(String));
    expect(doc.components.securitySchemes).toEqual({
      sidKey: { type: 'apiKey', in: 'header', name: 'Ocp-Apim-Sid-Key' },
      subscriptionKey: { type: 'apiKey', in: 'header', name: 'Ocp-Apim-Subscription-Key' },
    });
    expect(doc.security).toEqual([{ sidKey: [], subscriptionKey: [] }]);
  });

  it('has every route of every contract, with its method, success status and error statuses', () => {
    expect(contracts.length).toBeGreaterThanOrEqual(2);
    for (const c of contracts) {
      for (const route of c.routes) {
        const op = doc.paths[`/${route}`]?.[c.method.toLowerCase()];
        expect(op).toBeDefined();
        expect(op.responses[String(c.success.status)]).toBeDefined();
        for (const code of c.errors) expect(op.responses[String(HTTP_STATUS[code])]?.description).toContain(code);
        for (const status of ['401', '429', '500']) {
          expect(op.responses[status].content['application/problem+json'].schema).toEqual({
            $ref: '#/components/schemas/Problem',
          });
        }
        expect(op.responses['429'].headers['Retry-After']).toBeDefined();
        if (c.body) {
          expect(op.requestBody.required).toBe(true);
          expect(op.requestBody.content['application/json'].schema).toBeDefined();
          expect(op.responses['413'].description).toContain('PAYLOAD_TOO_LARGE');
        }
      }
    }
  });

  it('documents the two operations of this issue at the spec paths', () => {
    expect(doc.paths['/v1/siex/farms'].get.parameters.map((p: Node) => [p.name, p.in, p.required])).toEqual([
      ['rea', 'query', true],
      ['year', 'query', true],
    ]);
    const listIdcp = doc.paths['/v1/siex/listidcp'].post;
    expect(listIdcp.parameters.map((p: Node) => [p.name, p.in, p.required])).toEqual([['agrifarmId', 'query', true]]);
    expect(Object.keys(listIdcp.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '404', '413', '429']));
  });

  it('documents the catalogue operations: If-None-Match, 304 with the caching headers, the 404s and the paging', () => {
    const paths = [
      '/v1/catalog/products',
      '/v1/catalog/products/{code}',
      '/v1/catalog/siex/{name}',
      '/v1/catalog/applicators',
    ];
    for (const path of paths) {
      const op = doc.paths[path].get;
      expect(op.parameters.find((p: Node) => p.name === 'If-None-Match')).toMatchObject({
        in: 'header',
        required: false,
      });
      expect(op.responses['304'].content).toBeUndefined();
      for (const status of ['200', '304']) {
        expect(Object.keys(op.responses[status].headers)).toEqual(expect.arrayContaining(['ETag', 'Cache-Control']));
      }
      expect(op.responses['401']).toBeDefined();
    }
    const products = doc.paths['/v1/catalog/products'].get;
    expect(products.parameters.filter((p: Node) => p.in === 'query').map((p: Node) => [p.name, p.required])).toEqual([
      ['crop', true],
      ['date', false],
      ['pest', false],
      ['scope', false],
      ['q', false],
      ['page', false],
      ['page_size', false],
    ]);
    expect(products.responses['200'].headers['X-Total-Count']).toBeDefined();
    expect(doc.paths['/v1/catalog/products/{code}'].get.responses['404'].description).toContain(
      'PRODUCT_CODE_NOT_FOUND',
    );
    const siex = doc.paths['/v1/catalog/siex/{name}'].get;
    expect(siex.parameters[0]).toMatchObject({ name: 'name', in: 'path', required: true });
    expect(siex.parameters[0].schema.enum).toEqual(
      expect.arrayContaining(['units', 'crops', 'pests', 'machine-types']),
    );
    expect(siex.responses['404'].description).toContain('SIEX_CATALOGUE_NOT_FOUND');
    expect(doc.paths['/v1/catalog/applicators'].get.responses['404'].description).toContain('APPLICATOR_NOT_FOUND');
  });

  it('has unique operation ids', () => {
    const ids = Object.values(doc.paths).flatMap((item) =>
      Object.values(item as Node).map((op) => (op as Node).operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('resolves every $ref inside the document', () => {
    const all = refs(doc);
    expect(all.length).toBeGreaterThan(0);
    const broken = all.filter(({ ref }) => resolve(ref) === undefined);
    expect(broken).toEqual([]);
  });

  it('lists every error code with its status and meaning', () => {
    const text = JSON.stringify(doc);
    for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
      const status = HTTP_STATUS[code];
      expect(doc.info.description).toContain(`\`${code}\` (${status})`);
    }
    expect(text).toContain('application/problem+json');
  });

  it('has component schemas that compile as JSON Schema 2020-12 (the dialect of OpenAPI 3.1)', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema({ $id: 'doc', components: doc.components }, 'doc');
    for (const name of Object.keys(doc.components.schemas)) {
      expect(typeof ajv.getSchema(`doc#/components/schemas/${name}`)).toBe('function');
    }
  });

  it('describes the farm lookup response with the spec types', () => {
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ $id: 'doc', components: doc.components }, 'doc');
    const schema = doc.paths['/v1/siex/farms'].get.responses['200'].content['application/json'].schema;
    const validate = ajv.compile({ $id: 'farms-response', ...rebase(schema) });
    const enclosure = {
      idcp: 1,
      prov: '46',
      town: '213',
      aggr: '0',
      zone: '0',
      pol: '12',
      parc: '45',
      enc: '1',
      dimension: '2.35',
    };
    const farm = {
      id: 'urn:ngsi-ld:AgriFarm:1',
      name: 'F',
      description: '',
      year: 2026,
      dateCreated: '01-03-2026 10:00:00',
      address: { addressLocality: 'Requena', addressCountry: 'ES' },
      owned: { name: '', surname: '', email: '', nif: '' },
      agriCrop: [
        {
          id: 'urn:ngsi-ld:AgriCrop:1',
          crop: {
            type: 'TypeCropVariety',
            typecrop: { type: 'TypeCrop', id: '102', name: 'VIÑA' },
            code: 1001,
            name: 'T',
          },
          agriParcel: [{ id: 'urn:ngsi-ld:AgriParcel:1', name: 'P', sigpac: [enclosure] }],
        },
      ],
      regionalAttributes: [{ rea: 'R', address: { province: 'Valencia', community: { name: 'CV' } } }],
    };
    expect(validate([farm])).toBe(true);
    expect(validate([{ ...farm, year: '2026' }])).toBe(false);
    const stringIdcp = structuredClone(farm);
    (stringIdcp.agriCrop[0].agriParcel[0].sigpac[0] as Node).idcp = '1';
    expect(validate([stringIdcp])).toBe(false);
  });
});

/** Points `#/components/...` refs of an inline schema at the document registered as `doc`. */
function rebase(schema: unknown): Node {
  const walk = (n: unknown): unknown =>
    Array.isArray(n)
      ? n.map(walk)
      : n && typeof n === 'object'
        ? Object.fromEntries(
            Object.entries(n).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? `doc${v}` : walk(v)]),
          )
        : n;
  return walk(schema) as Node;
}
