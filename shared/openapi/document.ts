import { z } from 'zod';
import { contracts } from '../app/contracts';
import { COMMON_ERRORS, BODY_ERRORS, Contract, SuccessAnswer } from '../http/contract';
import { ErrorCode } from '../domain/errors';
import { ERROR_CODES, HTTP_STATUS } from '../app/error-codes';
import { problemSchema } from '../http/problem';
import { OperationId } from '../app/routes';
import { OPERATION_TAGS, TAGS } from './tags';

type JsonSchema = Record<string, unknown>;

/**
 * Turns a zod schema into an OpenAPI 3.1 schema object, moving named sub-schemas (`.meta({ id })`) into the shared
 * components so that each appears once.
 */
function toSchema(schema: z.ZodType, io: 'input' | 'output', components: Record<string, JsonSchema>): JsonSchema {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
  delete json.$defs;
  delete json.$schema;
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (node && typeof node === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(node)) {
        out[k] = k === '$ref' && typeof v === 'string' ? v.replace('#/$defs/', '#/components/schemas/') : rewrite(v);
      }
      return out;
    }
    return node;
  };
  for (const [name, def] of Object.entries(defs)) components[name] ??= rewrite(def) as JsonSchema;
  return rewrite(json) as JsonSchema;
}

function parametersIn(
  where: 'path' | 'query',
  schema: z.ZodType | undefined,
  examples: Record<string, string | number>,
  components: Record<string, JsonSchema>,
): unknown[] {
  if (!schema) return [];
  // The contract's output: what a parameter means (an integer page), not the text a query string carries.
  const json = toSchema(schema, 'output', components);
  const props = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(props).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    ...(s.description ? { description: s.description } : {}),
    schema: s,
    ...(name in examples ? { example: examples[name] } : {}),
  }));
}

function parameters(contract: Contract, components: Record<string, JsonSchema>): unknown[] {
  return [
    ...parametersIn('path', contract.params, contract.example.params ?? {}, components),
    ...parametersIn('query', contract.query, contract.example.query, components),
    ...(contract.idempotent ? [IDEMPOTENCY_KEY_PARAMETER] : []),
    ...(contract.ifMatch ? [IF_MATCH_PARAMETER] : []),
    ...(contract.ifNoneMatch ? [IF_NONE_MATCH_PARAMETER] : []),
  ];
}

const IF_NONE_MATCH_PARAMETER = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description:
    'The `ETag` of the answer the caller holds: 304 with no body while it still holds (the catalogue unchanged ' +
    'since, and for answers about today, the same day), else the answer with its new ETag.',
  schema: { type: 'string' },
  example: '"mP2CwZcQ0d1h3TsqL5cVfA8X9kE"',
};

const IF_MATCH_PARAMETER = {
  name: 'If-Match',
  in: 'header',
  required: false,
  description:
    "The record's `ETag` as the last answer gave it: the change applies only if nobody changed the record since, " +
    'else 412 PRECONDITION_FAILED and nothing changes. Without it, the change applies to the record as it is then.',
  schema: { type: 'string' },
  example: '"2"',
};

const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes retries safe: a request with the same key and body returns the first answer and creates nothing; the ' +
    'same key with another body is 422 IDEMPOTENCY_KEY_REUSED. A key belongs to one client and one operation: the ' +
    "same key on another operation (a treatment's key sent to register another kind's record, or to export) is 422 " +
    'IDEMPOTENCY_KEY_REUSED too, and runs nothing. Answers are remembered per client and holding (per farm campaign ' +
    'for exports). A key sent before the gateway bound keys to operations belongs to the first operation it is sent ' +
    'on now, so its retries answer as before. Use a new one per request, and the same one for its retries.',
  schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,200}$' },
  example: '7d1c7a52-olive-1',
};

const RETRY_AFTER = { description: 'seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } };

/** Statuses whose answer says when to come back. */
function retryAfter(status: number, codes: ErrorCode[]): boolean {
  return status === 429 || status === 503 || codes.includes('JOB_NOT_FINISHED');
}

function errorResponses(contract: Contract): Record<string, unknown> {
  const codes = new Set<ErrorCode>([...COMMON_ERRORS, ...(contract.body ? BODY_ERRORS : []), ...contract.errors]);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = HTTP_STATUS[code];
    if (status === undefined) throw new Error(`${contract.operationId} lists ${code}, which no table declares`);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, unknown> = {};
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    out[String(status)] = {
      description: list.map((c) => `\`${c}\`: ${ERROR_CODES[c]}`).join('; '),
      ...(retryAfter(status, list) ? { headers: { 'Retry-After': RETRY_AFTER } } : {}),
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
    };
  }
  return out;
}

/** The demo flow's value as a named example. */
function demo(value: unknown): Record<string, unknown> {
  return { demo: { summary: 'the README flow with the demo data (npm start)', value } };
}

/** A successful answer: its headers and, unless it has no body (204), its content with the demo example. */
function successResponse(
  answer: SuccessAnswer,
  example: unknown,
  components: Record<string, JsonSchema>,
): Record<string, unknown> {
  return {
    description: answer.description,
    ...(answer.headers
      ? {
          headers: Object.fromEntries(
            Object.entries(answer.headers).map(([h, d]) => [
              h,
              { description: d.description, schema: { type: d.type } },
            ]),
          ),
        }
      : {}),
    ...(answer.schema
      ? {
          content: {
            'application/json': {
              schema: toSchema(answer.schema, 'output', components),
              ...(example === undefined ? {} : { examples: demo(example) }),
            },
          },
        }
      : {}),
  };
}

/**
 * The violation's `code` enumerates every code of the app's table (the core's, then each kind's in the registry's
 * order): the edge's schema (shared/http/problem.ts) knows no kind, so the document, which knows them all, says them.
 */
function enumerateCodes(components: Record<string, JsonSchema>): void {
  const violation = components.Violation as { properties: Record<string, JsonSchema> };
  const { type, ...rest } = violation.properties.code as JsonSchema;
  violation.properties.code = { type, enum: Object.keys(ERROR_CODES), ...rest };
}

/** The OpenAPI 3.1 document of the gateway, generated from the same contracts and schemas the code validates with. */
export function buildOpenApiDocument(): Record<string, unknown> {
  const components: Record<string, JsonSchema> = {};
  toSchema(problemSchema, 'output', components);
  enumerateCodes(components);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const c of contracts) {
    const tag = OPERATION_TAGS[c.operationId as OperationId];
    if (!tag) throw new Error(`${c.operationId} has no tag in shared/openapi/tags.ts`);
    const [primary, ...aliases] = c.routes;
    c.routes.forEach((route, i) => {
      const operation = {
        operationId: i === 0 ? c.operationId : `${c.operationId}Alias${aliases.length > 1 ? i : ''}`,
        tags: [tag],
        summary: c.summary,
        // The spec shows these second spellings too; they stay served, but new clients should use the first.
        ...(i === 0
          ? { description: c.description }
          : {
              deprecated: true,
              description: `Deprecated spelling of \`${c.method} /${primary}\`, served the same; use that path.\n\n${c.description}`,
            }),
        parameters: parameters(c, components),
        ...(c.body
          ? {
              requestBody: {
                required: true,
                content: Object.fromEntries(
                  (c.bodyTypes ?? ['application/json']).map((type) => [
                    type,
                    { schema: toSchema(c.body!, 'input', components), examples: demo(c.example.request) },
                  ]),
                ),
              },
            }
          : {}),
        responses: {
          [String(c.success.status)]: successResponse(c.success, c.example.response, components),
          ...Object.fromEntries(
            (c.alsoSuccess ?? []).map((a) => [String(a.status), successResponse(a, undefined, components)]),
          ),
          ...errorResponses(c),
        },
      };
      paths[`/${route}`] = { ...paths[`/${route}`], [c.method.toLowerCase()]: operation };
    });
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'SIEX gateway',
      version: '1.0.0',
      // The repository's LICENSE; test/unit/licence.test.ts holds this, the client's package.json and the README equal.
      license: { name: 'Apache License 2.0', identifier: 'Apache-2.0' },
      description:
        'Report phytosanitary treatments to SIEX (the digital farm notebook, CUE). Every operation needs the two keys ' +
        '`Ocp-Apim-Sid-Key` and `Ocp-Apim-Subscription-Key`. Errors are RFC 9457 problem details listing every ' +
        'violation with a stable code. At most 100 requests per minute per client and 1 MB per request. ' +
        'Times are Europe/Madrid, `DD-MM-YYYY HH:mm:ss`.\n\nError codes:\n' +
        Object.entries(ERROR_CODES)
          .map(([code, text]) => `- \`${code}\` (${HTTP_STATUS[code as ErrorCode]}): ${text}`)
          .join('\n'),
    },
    servers: [{ url: '/' }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    security: [{ sidKey: [], subscriptionKey: [] }],
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        sidKey: { type: 'apiKey', in: 'header', name: 'Ocp-Apim-Sid-Key' },
        subscriptionKey: { type: 'apiKey', in: 'header', name: 'Ocp-Apim-Subscription-Key' },
      },
    },
  };
}
