/**
 * infra/openapi.json is what API Management imports (infra/modules/apim.bicep). It must be exactly what the code
 * generates (local/write-openapi.ts), a valid OpenAPI 3.1 document, and importable by API Management.
 */
import * as fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { OPENAPI_FILE, renderOpenApi } from '../../local/write-openapi';
import { apimImportProblems, schemaCompileProblems, validateOpenApi31 } from './openapi-check';

describe('infra/openapi.json', () => {
  const committed = fs.existsSync(OPENAPI_FILE) ? fs.readFileSync(OPENAPI_FILE, 'utf8') : '';
  const doc: unknown = committed ? JSON.parse(committed) : undefined;

  it('is the document the code generates (else: npm run openapi)', () => {
    const generated = renderOpenApi();
    // Compare the parsed documents first, so a stale file shows what changed rather than two long strings.
    expect(doc).toEqual(JSON.parse(generated));
    expect(committed).toBe(generated);
  });

  it('has the TypeScript client types and the Postman collection generated from it (else: npm run openapi)', () => {
    // openapi-typescript is an ES module, which jest's module system cannot load: the check runs as npm's would.
    const script = path.join(path.dirname(OPENAPI_FILE), '..', 'dist', 'local', 'write-openapi.js');
    expect(execFileSync(process.execPath, [script, '--check'], { encoding: 'utf8' })).toMatch(
      /schema\.ts, clients\/postman\/siex-gateway\.postman_collection\.json are up to date/,
    );
  });

  it('is a structurally valid OpenAPI 3.1 document whose every $ref resolves', () => {
    expect(validateOpenApi31(doc)).toEqual([]);
  });

  it('meets the API Management import restrictions', () => {
    expect(apimImportProblems(doc)).toEqual([]);
  });

  it('has schemas that compile as JSON Schema 2020-12', () => {
    expect(schemaCompileProblems(doc)).toEqual([]);
  });

  it('has the operations of the spec, each with its error responses', () => {
    const paths = (doc as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }).paths;
    // API Management matches `resource` and `resource/` with one operation, as the Functions host does.
    for (const route of ['/v1/siex/farms', '/v1/siex/listidcp', '/v1/entities/agriphytosanitarys'])
      expect(Object.keys(paths)).toContain(route);
    for (const item of Object.values(paths))
      for (const op of Object.values(item))
        expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['401', '429']));
  });
});

describe('the OpenAPI checks bite', () => {
  const minimal = () => ({
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      '/a': {
        get: {
          operationId: 'a',
          responses: {
            '200': {
              description: 'ok',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/A' } } },
            },
          },
        },
      },
    },
    components: {
      schemas: { A: { type: 'object', properties: { b: { $ref: '#/components/schemas/B' } } }, B: { type: 'string' } },
    },
  });

  it('accepts a minimal valid document', () => {
    expect(validateOpenApi31(minimal())).toEqual([]);
    expect(apimImportProblems(minimal())).toEqual([]);
    expect(schemaCompileProblems(minimal())).toEqual([]);
  });

  it('reports a wrong version, a missing info, an operation without responses and a dangling $ref', () => {
    const doc = minimal() as Record<string, unknown> & ReturnType<typeof minimal>;
    doc.openapi = '3.0.3';
    delete (doc as Record<string, unknown>).info;
    (doc.paths['/a'].get as Record<string, unknown>).responses = {};
    doc.components.schemas.A.properties.b.$ref = '#/components/schemas/Missing';
    const problems = validateOpenApi31(doc).join('\n');
    expect(problems).toMatch(/openapi must be 3\.1/);
    expect(problems).toMatch(/info needs/);
    expect(problems).toMatch(/GET \/a: responses must list/);
    expect(problems).toMatch(/\$ref #\/components\/schemas\/Missing .* does not resolve/);
  });

  it('reports what API Management cannot import: recursion, external refs, missing operationId, cookies', () => {
    const doc = minimal();
    (doc.components.schemas as Record<string, unknown>).B = {
      type: 'array',
      items: { $ref: '#/components/schemas/A' },
    };
    delete (doc.paths['/a'].get as Record<string, unknown>).operationId;
    (doc.paths['/a'].get as Record<string, unknown>).parameters = [
      { name: 'c', in: 'cookie', schema: { type: 'string' } },
      { name: 'd', in: 'query', schema: { $ref: 'other.json#/D' } },
    ];
    const problems = apimImportProblems(doc).join('\n');
    expect(problems).toMatch(/recursive/);
    expect(problems).toMatch(/external/);
    expect(problems).toMatch(/operationId/);
    expect(problems).toMatch(/cookie/);
  });

  it('reports a schema that is not valid JSON Schema', () => {
    const doc = minimal();
    (doc.components.schemas as Record<string, unknown>).B = { type: 'no-such-type' };
    expect(schemaCompileProblems(doc).join('\n')).toMatch(/components\/schemas\/B/);
  });
});
