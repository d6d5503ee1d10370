/**
 * Properties: every property a resource body writes exists, writable, in the official type definition of its type and
 * version (resource-schemas.json, written from those definitions by write-resource-schemas.ts). A misspelt property
 * (`disableLocalAuth` where Application Insights says `DisableLocalAuth`) or a read-only one is otherwise ignored or
 * refused only at deployment. Literal keys are checked wherever the value can be followed: objects, arrays, loops,
 * both branches of a condition, and variables of the same file.
 */
import type { Node } from 'web-tree-sitter';
import { BicepFile, literalValue, objectProperties } from '../bicep';
import { Finding, Infra, rel, Resource, ResourceSchemas } from './model';

/** Keywords of a resource declaration that are Bicep's, not the resource's. */
const BICEP_KEYWORDS = new Set(['parent', 'scope', 'dependsOn']);

export function checkProperties(infra: Infra, schemas: ResourceSchemas, verified: string[]): Finding[] {
  const out: Finding[] = [];
  for (const typeAndVersion of verified)
    if (!(typeAndVersion in schemas.types))
      out.push({
        check: 'properties',
        file: 'test/infra/resource-schemas.json',
        message: `no schema for ${typeAndVersion}: run write-resource-schemas.js (verified-resource-types.json says how)`,
      });
  const byType = new Map(Object.entries(schemas.types).map(([t, i]) => [t.toLowerCase(), i]));
  for (const file of infra.files.values())
    for (const resource of file.resources) {
      const root = byType.get(resource.typeAndVersion.toLowerCase());
      if (resource.existing || !resource.body || root === undefined) continue;
      const report = (path: string) =>
        out.push({
          check: 'properties',
          file: rel(infra, file.file),
          message: `${resource.symbol}: ${path} is not a writable property of ${resource.typeAndVersion}`,
        });
      walk(schemas, file, resource, root, resource.body, '', report, 0, true);
    }
  return out;
}

function walk(
  schemas: ResourceSchemas,
  file: BicepFile,
  resource: Resource,
  index: number,
  value: Node | undefined,
  path: string,
  report: (path: string) => void,
  depth: number,
  top = false,
): void {
  const schema = schemas.defs[index];
  if (!value || !schema || depth > 40) return;
  const next = (i: number, v: Node | undefined, p: string) => walk(schemas, file, resource, i, v, p, report, depth + 1);
  switch (value.type) {
    case 'identifier': {
      // A variable of the same file stands for its value; parameters and symbols cannot be followed.
      const target = file.vars.get(value.text);
      if (target) next(index, target, path);
      return;
    }
    case 'ternary_expression':
    case 'parenthesized_expression':
      for (const branch of value.namedChildren.slice(value.type === 'ternary_expression' ? 1 : 0))
        next(index, branch, path);
      return;
    case 'for_statement': // `[for x in xs: item]`: the body is one item of the array
      if (schema.a !== undefined && schema.a >= 0)
        next(schema.a, value.namedChildren[value.namedChildren.length - 1], `${path}[]`);
      return;
    case 'array':
      if (schema.a !== undefined && schema.a >= 0)
        for (const item of value.namedChildren.filter((n) => n.type !== 'comment')) next(schema.a, item, `${path}[]`);
      return;
    case 'object': {
      const props = { ...schema.p };
      if (schema.d && schema.e) {
        const discriminator = literalValue(objectProperties(value).find((p) => p.key === schema.d)?.value);
        const element = typeof discriminator === 'string' ? schema.e[discriminator] : undefined;
        if (element === undefined) return; // an unknown or computed case: its properties cannot be told
        Object.assign(props, schemas.defs[element]?.p);
      }
      for (const p of objectProperties(value)) {
        if (top && BICEP_KEYWORDS.has(p.key)) continue;
        const child = props[p.key] ?? schema.m;
        const at = path ? `${path}.${p.key}` : p.key;
        if (child === undefined) report(at);
        else if (child >= 0) next(child, p.value, at);
      }
      return;
    }
    default:
      return;
  }
}
