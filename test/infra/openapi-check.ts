/**
 * Structural validation of the OpenAPI 3.1 document API Management imports, plus the import restrictions API
 * Management documents ("API import restrictions and known issues"): no external or dangling $ref, no recursive
 * schemas, no cookie parameters, an operationId on every operation, parameter names unique within a URL template.
 */
import Ajv2020 from 'ajv/dist/2020';

type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Resolves a local JSON pointer (`#/a/b`) in a document; undefined when it does not resolve. */
function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  const parts = ref
    .slice(1)
    .split('/')
    .slice(1)
    .map((p) => decodeURIComponent(p).replace(/~1/g, '/').replace(/~0/g, '~'));
  let current: unknown = doc;
  for (const p of parts) {
    if (Array.isArray(current)) current = current[Number(p)];
    else if (isObject(current) && p in current) current = current[p];
    else return undefined;
  }
  return current;
}

/** Every `$ref` string in a document, with the JSON path where it occurs. */
function allRefs(node: unknown, at = '#'): { ref: string; at: string }[] {
  if (Array.isArray(node)) return node.flatMap((v, i) => allRefs(v, `${at}/${i}`));
  if (!isObject(node)) return [];
  return Object.entries(node).flatMap(([k, v]) =>
    k === '$ref' && typeof v === 'string'
      ? [{ ref: v, at }]
      : allRefs(v, `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`),
  );
}

/** OpenAPI 3.1 structure: version, info, paths, operations with responses, parameters, unique operationIds, $refs. */
export function validateOpenApi31(doc: unknown): string[] {
  const problems: string[] = [];
  if (!isObject(doc)) return ['the document is not an object'];
  if (typeof doc.openapi !== 'string' || !/^3\.1\.\d+$/.test(doc.openapi))
    problems.push(`openapi must be 3.1.x, is ${JSON.stringify(doc.openapi)}`);
  const info = doc.info;
  if (!isObject(info) || typeof info.title !== 'string' || typeof info.version !== 'string')
    problems.push('info needs a title and a version (strings)');
  if (!isObject(doc.paths)) {
    problems.push('paths must be an object');
    return problems;
  }
  const operationIds = new Map<string, string>();
  for (const [route, item] of Object.entries(doc.paths)) {
    if (!route.startsWith('/')) problems.push(`path ${route} must start with /`);
    if (!isObject(item)) {
      problems.push(`path ${route} must be an object`);
      continue;
    }
    const templateParams = [...route.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    for (const [method, op] of Object.entries(item)) {
      if (['summary', 'description', 'servers', 'parameters', '$ref'].includes(method)) continue;
      const where = `${method.toUpperCase()} ${route}`;
      if (!METHODS.includes(method)) {
        problems.push(`${route}: '${method}' is not an HTTP method`);
        continue;
      }
      if (!isObject(op)) {
        problems.push(`${where}: the operation must be an object`);
        continue;
      }
      if (typeof op.operationId === 'string') {
        if (operationIds.has(op.operationId))
          problems.push(`${where}: operationId ${op.operationId} is also used by ${operationIds.get(op.operationId)}`);
        operationIds.set(op.operationId, where);
      }
      const responses = op.responses;
      if (!isObject(responses) || Object.keys(responses).length === 0)
        problems.push(`${where}: responses must list at least one response`);
      else
        for (const [status, response] of Object.entries(responses)) {
          if (status !== 'default' && !/^[1-5](\d\d|XX)$/.test(status))
            problems.push(`${where}: '${status}' is not a status code`);
          const r =
            isObject(response) && typeof response.$ref === 'string' ? resolvePointer(doc, response.$ref) : response;
          if (!isObject(r) || typeof r.description !== 'string')
            problems.push(`${where}: response ${status} needs a description`);
        }
      const params = Array.isArray(op.parameters) ? op.parameters : op.parameters === undefined ? [] : null;
      if (params === null) problems.push(`${where}: parameters must be an array`);
      for (const raw of params ?? []) {
        const p = isObject(raw) && typeof raw.$ref === 'string' ? resolvePointer(doc, raw.$ref) : raw;
        if (
          !isObject(p) ||
          typeof p.name !== 'string' ||
          !['query', 'header', 'path', 'cookie'].includes(String(p.in))
        ) {
          problems.push(`${where}: each parameter needs a name and in (query, header, path, cookie)`);
          continue;
        }
        if (p.in === 'path' && (p.required !== true || !templateParams.includes(p.name)))
          problems.push(`${where}: path parameter ${p.name} must be required and appear in the path`);
        if (p.schema === undefined && p.content === undefined)
          problems.push(`${where}: parameter ${p.name} needs a schema`);
      }
      const body = op.requestBody;
      if (body !== undefined && (!isObject(body) || (!isObject(body.content) && typeof body.$ref !== 'string')))
        problems.push(`${where}: requestBody needs content`);
    }
  }
  for (const { ref, at } of allRefs(doc))
    if (resolvePointer(doc, ref) === undefined) problems.push(`$ref ${ref} at ${at} does not resolve`);
  return problems;
}

/** What API Management's importer refuses or mishandles (its documented OpenAPI import restrictions). */
export function apimImportProblems(doc: unknown): string[] {
  const problems: string[] = [];
  if (!isObject(doc) || !isObject(doc.paths)) return ['not an OpenAPI document'];
  for (const { ref, at } of allRefs(doc))
    if (!ref.startsWith('#/')) problems.push(`$ref ${ref} at ${at} is external: API Management cannot follow it`);
  for (const [route, item] of Object.entries(doc.paths)) {
    if (!isObject(item)) continue;
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.includes(method) || !isObject(op)) continue;
      const where = `${method.toUpperCase()} ${route}`;
      if (typeof op.operationId !== 'string' || op.operationId === '')
        problems.push(`${where}: give it an operationId (API Management matches operations by it on re-import)`);
      const names = new Map<string, string>();
      for (const raw of Array.isArray(op.parameters) ? op.parameters : []) {
        const p = isObject(raw) && typeof raw.$ref === 'string' ? resolvePointer(doc, raw.$ref) : raw;
        if (!isObject(p)) continue;
        if (p.in === 'cookie') problems.push(`${where}: cookie parameter ${String(p.name)} is not supported`);
        if ((p.in === 'query' || p.in === 'path') && names.has(String(p.name)))
          problems.push(
            `${where}: parameter name ${String(p.name)} is used in both ${names.get(String(p.name))} and ${p.in}`,
          );
        if (p.in === 'query' || p.in === 'path') names.set(String(p.name), String(p.in));
      }
    }
  }
  // Recursive schemas: a $ref cycle among components.schemas.
  const schemas = isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {};
  const edges = new Map<string, string[]>(
    Object.entries(schemas).map(([name, s]) => [
      name,
      allRefs(s)
        .map((r) => /^#\/components\/schemas\/(.+)$/.exec(r.ref)?.[1])
        .filter((n): n is string => n !== undefined),
    ]),
  );
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, trail: string[]): void => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') {
      problems.push(
        `schema ${[...trail, name].join(' -> ')} is recursive: API Management does not import recursive schemas`,
      );
      return;
    }
    state.set(name, 'visiting');
    for (const next of edges.get(name) ?? []) visit(next, [...trail, name]);
    state.set(name, 'done');
  };
  for (const name of edges.keys()) visit(name, []);
  return problems;
}

/** Every schema in the document compiles as JSON Schema 2020-12 (the dialect of OpenAPI 3.1). */
export function schemaCompileProblems(doc: unknown): string[] {
  if (!isObject(doc)) return ['not an object'];
  const problems: string[] = [];
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  const components = isObject(doc.components) ? doc.components : {};
  const schemaSites: { at: string; schema: unknown }[] = [];
  const collect = (node: unknown, at: string) => {
    if (Array.isArray(node)) node.forEach((v, i) => collect(v, `${at}/${i}`));
    else if (isObject(node))
      for (const [k, v] of Object.entries(node)) {
        if (k === 'schema' && isObject(v)) schemaSites.push({ at: `${at}/schema`, schema: v });
        else collect(v, `${at}/${k}`);
      }
  };
  collect(doc.paths, '#/paths');
  for (const [name, s] of Object.entries(isObject(components.schemas) ? components.schemas : {}))
    schemaSites.push({ at: `#/components/schemas/${name}`, schema: s });
  for (const { at, schema } of schemaSites) {
    try {
      // The components ride along so that '#/components/schemas/...' resolves against this root.
      ajv.compile({ ...(schema as Json), components });
    } catch (e) {
      problems.push(`${at}: ${(e as Error).message}`);
    }
  }
  return problems;
}
