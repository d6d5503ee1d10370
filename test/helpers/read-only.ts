import { buildOpenApiDocument } from '../../shared/openapi/document';

type Json = Record<string, unknown>;

/** The document's schemas, built once: what an ERP generating a client from `GET /openapi.json` reads. */
export const documentSchemas = (buildOpenApiDocument() as { components: { schemas: Record<string, Json> } }).components
  .schemas;

/** A schema node with its `$ref` followed to the document's schema it names. */
export function followRef<Node extends Json>(node: Node): Node {
  return typeof node.$ref === 'string' ? followRef(documentSchemas[node.$ref.split('/').pop()!] as Node) : node;
}

/** A schema node with its `$ref` followed, and a nullable or optional one's object branch taken. */
function resolve(node: Json | undefined): Json | undefined {
  if (!node) return undefined;
  const n = followRef(node);
  return Array.isArray(n.anyOf) ? resolve((n.anyOf as Json[]).find((b) => b.type !== 'null')) : n;
}

/** `value` without what `schema` marks readOnly, at any depth: a record read back as an ERP would send it again. */
export function withoutReadOnly(value: unknown, schema: Json | undefined): unknown {
  const s = resolve(schema);
  if (Array.isArray(value)) return value.map((v) => withoutReadOnly(v, s?.items as Json | undefined));
  if (value === null || typeof value !== 'object' || !s?.properties) return value;
  const props = s.properties as Record<string, Json>;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !props[k]?.readOnly)
      .map(([k, v]) => [k, withoutReadOnly(v, props[k])]),
  );
}

/** The properties of a schema of the document, its `$ref` followed. */
export function propertiesOf(schema: Json): Record<string, Json> {
  return (resolve(schema)?.properties ?? {}) as Record<string, Json>;
}
