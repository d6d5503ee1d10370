/**
 * The Postman collection (clients/postman/), generated from the OpenAPI document by `npm run openapi` beside it, and a
 * smoke test as shipped: `npm run smoke -- --url <gateway>` runs it with newman (local/smoke.ts), and so does a test
 * against a local stack with the demo data (test/heavy/smoke-collection.test.ts). Postman and Bruno import it as it is.
 *
 * Every operation the document does not mark deprecated is one request, in the order a client meets them: the farm
 * lookup (its answer's `id` becomes `{{agrifarmId}}`), the other farm and catalogue calls, then for each record kind
 * (a collection under /v1/entities/) registration, read, list, amendment and history, the export of what was
 * registered and its job polled to the end, the deletion of each record, and each kind's batch. Ids, ETags and job
 * ids are chained through variables; dates are computed when a request runs, in Madrid time; optional parameters are
 * in the request but off. Each request asserts the statuses the document gives its success and the properties its
 * answer's schema requires, and what the run depends on (the job finished, the result names what was exported). What
 * the run creates it deletes, so it runs again on the same data. A new kind or operation in the document is a new
 * request here with nothing to add.
 */
import { buildDemoDataset } from './demo/build-dataset';

type Json = Record<string, unknown>;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  example?: unknown;
}

interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  deprecated?: boolean;
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: { content: Record<string, { example?: unknown; examples?: Record<string, { value: unknown }> }> };
  responses: Record<
    string,
    { content?: Record<string, { schema?: Json; examples?: Record<string, { value: unknown }> }> }
  >;
}

interface Document {
  paths: Record<string, Record<string, Operation>>;
  components?: { parameters?: Record<string, Parameter>; schemas?: Record<string, Json> };
}

/** What a request does in the run, beyond its assertions. */
type Role =
  | { kind: 'lookup' }
  | { kind: 'other' }
  /** A PUT: it sets what the other requests of its path then read (the caller's webhook), so it runs first. */
  | { kind: 'setting' }
  | {
      kind: 'record';
      step: 'register' | 'read' | 'list' | 'amend' | 'history' | 'delete' | 'batch';
      collection: string;
    }
  | { kind: 'export' }
  | { kind: 'jobStatus' }
  | { kind: 'jobResult' };

interface Call {
  path: string;
  method: string;
  op: Operation;
  role: Role;
}

const RECORD_STEPS: [RegExp, string, Extract<Role, { kind: 'record' }>['step']][] = [
  [/^\/v1\/entities\/(\w+)$/, 'post', 'register'],
  [/^\/v1\/entities\/(\w+)$/, 'get', 'list'],
  [/^\/v1\/entities\/(\w+)\/\{id\}$/, 'get', 'read'],
  [/^\/v1\/entities\/(\w+)\/\{id\}$/, 'patch', 'amend'],
  [/^\/v1\/entities\/(\w+)\/\{id\}$/, 'delete', 'delete'],
  [/^\/v1\/entities\/(\w+)\/\{id\}\/history$/, 'get', 'history'],
  [/^\/v1\/entities\/(\w+)\/batch$/, 'post', 'batch'],
];

function roleOf(path: string, method: string, op: Operation): Role {
  if (op.tags?.includes('export')) {
    if (method === 'post') return { kind: 'export' };
    if (path.endsWith('/jobstatus')) return { kind: 'jobStatus' };
    if (path.endsWith('/jobresult')) return { kind: 'jobResult' };
  }
  for (const [pattern, m, step] of RECORD_STEPS) {
    const match = pattern.exec(path);
    if (match && m === method) return { kind: 'record', step, collection: match[1]! };
  }
  const required = parametersOf({ paths: {} }, op).filter((p) => p.required && p.in === 'query');
  if (method === 'get' && required.some((p) => p.name === 'rea')) return { kind: 'lookup' };
  return method === 'put' ? { kind: 'setting' } : { kind: 'other' };
}

/** The order of the run: what each request needs is set by one before it. */
function rank(role: Role, collections: string[]): number[] {
  const kindAt = (c: string) => collections.indexOf(c);
  switch (role.kind) {
    case 'lookup':
      return [0];
    case 'other':
      return [1];
    case 'setting':
      return [1, -1];
    case 'record': {
      const before = ['register', 'read', 'list', 'amend', 'history'].indexOf(role.step);
      if (before >= 0) return [2, kindAt(role.collection), before];
      return role.step === 'delete' ? [4, kindAt(role.collection)] : [5, kindAt(role.collection)];
    }
    case 'export':
      return [3, 0];
    case 'jobStatus':
      return [3, 1];
    case 'jobResult':
      return [3, 2];
  }
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++)
    if ((a[i] ?? -1) !== (b[i] ?? -1)) return (a[i] ?? -1) - (b[i] ?? -1);
  return 0;
}

function parametersOf(doc: Document, op: Operation): Parameter[] {
  return (op.parameters ?? []).map((p) => ('$ref' in p ? doc.components!.parameters![p.$ref.split('/').pop()!]! : p));
}

/** The document's operations in the order of the run, deprecated spellings left out (clients use the first). */
function calls(doc: Document): Call[] {
  const all = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([, op]) => typeof op === 'object' && op.operationId && !op.deprecated)
      .map(([method, op]) => ({ path, method, op, role: roleOf(path, method, op) })),
  );
  const collections = [
    ...new Set(all.flatMap((c) => (c.role.kind === 'record' && c.role.step === 'register' ? [c.role.collection] : []))),
  ];
  return all
    .map((call, at) => ({ call, key: [...rank(call.role, collections), at] }))
    .sort((a, b) => compare(a.key, b.key))
    .map(({ call }) => call);
}

const DATE_TIME = /^\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2}$/;
const DATE = /^\d{2}-\d{2}-\d{4}$/;

/** The example with its `date…` fields made the run's own: now, or today, in Madrid. */
function runTimeDates(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => runTimeDates(v));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, runTimeDates(v, k)]));
  if (typeof value === 'string' && key.startsWith('date')) {
    if (DATE_TIME.test(value)) return '{{now}}';
    if (DATE.test(value)) return '{{today}}';
  }
  return value;
}

function requestExample(op: Operation): unknown {
  const json = op.requestBody?.content['application/json'];
  return json?.example ?? Object.values(json?.examples ?? {})[0]?.value;
}

/** The 2xx statuses the document gives the operation. */
function successes(op: Operation): number[] {
  return Object.keys(op.responses)
    .filter((s) => /^2\d\d$/.test(s))
    .map(Number);
}

/** The properties a success answer's schema requires, of the object or of each item of the array. */
function requiredProperties(doc: Document, op: Operation): { array: boolean; required: string[] } | undefined {
  const status = successes(op)
    .map(String)
    .find((s) => op.responses[s]?.content?.['application/json']);
  if (!status) return undefined;
  const resolve = (schema: Json | undefined): Json | undefined =>
    typeof schema?.$ref === 'string' ? resolve(doc.components?.schemas?.[schema.$ref.split('/').pop()!]) : schema;
  const schema = resolve(op.responses[status]!.content!['application/json']!.schema);
  const array = schema?.type === 'array';
  const object = array ? resolve(schema.items as Json) : schema;
  return { array, required: (object?.required as string[] | undefined) ?? [] };
}

/** The example answer of the first success status, for the batch's per-item statuses. */
function answerExample(op: Operation): unknown {
  const status = successes(op).map(String)[0];
  return Object.values(op.responses[status ?? '']?.content?.['application/json']?.examples ?? {})[0]?.value;
}

const js = (value: unknown) => JSON.stringify(value);

/** The variables of a record collection's chained id and ETag. */
const idVar = (collection: string) => `${collection}_id`;
const etagVar = (collection: string) => `${collection}_etag`;

/** Scripts shared by several requests, defined once at the collection level. */
export const COLLECTION_PRE_REQUEST = [
  "pm.request.headers.upsert({ key: 'Ocp-Apim-Subscription-Key', value: pm.variables.get('subscriptionKey') });",
  '// Dates of the run in Madrid time, a minute back so that a client clock a little ahead of the gateway is not in the',
  "// future. Postman's sandbox has no Intl: Madrid is UTC+1, and UTC+2 in EU summer time (Directive 2000/84/EC), from",
  '// 01:00 UTC on the last Sunday of March to 01:00 UTC on the last Sunday of October.',
  'const utc = Date.now() - 60000;',
  'const year = new Date(utc).getUTCFullYear();',
  'const lastSunday = (month) => {',
  '  const day = new Date(Date.UTC(year, month + 1, 0, 1));',
  '  return day.getTime() - day.getUTCDay() * 86400000;',
  '};',
  'const at = new Date(utc + (utc >= lastSunday(2) && utc < lastSunday(9) ? 2 : 1) * 3600000);',
  "const two = (n) => String(n).padStart(2, '0');",
  'const today = `${two(at.getUTCDate())}-${two(at.getUTCMonth() + 1)}-${at.getUTCFullYear()}`;',
  "pm.variables.set('today', today);",
  "pm.variables.set('now', `${today} ${two(at.getUTCHours())}:${two(at.getUTCMinutes())}:${two(at.getUTCSeconds())}`);",
  "pm.variables.set('campaign', String(at.getUTCFullYear()));",
];

/** Waits for a job by polling jobstatus once a second, then calls `done` with its last answer (for a test script). */
const WAIT_FOR_JOB = [
  'function waitForJob(jobId, done, polls = 0) {',
  '  pm.sendRequest({',
  "    url: pm.variables.replaceIn('{{baseUrl}}/api-service/v1/entities/jobstatus?jobId=') + jobId,",
  "    header: { 'Ocp-Apim-Sid-Key': pm.variables.get('sidKey'),",
  "      'Ocp-Apim-Subscription-Key': pm.variables.get('subscriptionKey') },",
  '  }, (err, res) => {',
  '    const job = err ? null : res.json();',
  "    if (job && ['1', '2'].includes(job.status.id) && polls < 120)",
  '      return setTimeout(() => waitForJob(jobId, done, polls + 1), 1000);',
  '    done(job);',
  '  });',
  '}',
];

function recordScripts(call: Call, collection: string, step: string): { pre: string[]; test: string[] } {
  const id = idVar(collection);
  const etag = etagVar(collection);
  const keepEtag = `pm.collectionVariables.set('${etag}', pm.response.headers.get('ETag'));`;
  switch (step) {
    case 'register':
      return {
        pre: [],
        test: [
          'const [record] = pm.response.json();',
          `pm.test('the record has its URN', () => pm.expect(record.id).to.match(/^urn:ngsi-ld:\\w+:\\d+$/));`,
          `pm.collectionVariables.set('${id}', record.id);`,
          keepEtag,
          '// Exported below when SIEX would take it as it is.',
          "const exported = JSON.parse(pm.collectionVariables.get('exported') || '[]');",
          "if (record.exportable) pm.collectionVariables.set('exported', JSON.stringify([...exported, record.id]));",
        ],
      };
    case 'read':
      return {
        pre: [],
        test: [
          `pm.test('it is the record registered', () => pm.expect(pm.response.json()[0].id).to.equal(pm.collectionVariables.get('${id}')));`,
          keepEtag,
        ],
      };
    case 'amend':
      return { pre: [], test: [keepEtag] };
    case 'delete':
      return {
        // The export may have moved the record on: its ETag now, read first, is the one the deletion names.
        pre: [
          'pm.sendRequest({',
          `  url: pm.variables.replaceIn('{{baseUrl}}/v1/entities/${collection}/{{${id}}}?agrifarmId={{agrifarmId}}'),`,
          "  header: { 'Ocp-Apim-Sid-Key': pm.variables.get('sidKey'),",
          "    'Ocp-Apim-Subscription-Key': pm.variables.get('subscriptionKey') },",
          `}, (err, res) => { if (!err) pm.collectionVariables.set('${etag}', res.headers.get('ETag')); });`,
        ],
        test: [
          '// A record SIEX holds is deleted there first, by a job: the run waits for it, so the next run starts clean.',
          ...WAIT_FOR_JOB,
          'if (pm.response.code === 202)',
          "  waitForJob(pm.response.json().id, (job) => pm.test('the deletion job finished', () =>",
          "    pm.expect(job && job.status.id).to.equal('3')));",
        ],
      };
    case 'batch': {
      const statuses = ((answerExample(call.op) as { status: number }[] | undefined) ?? []).map((i) => i.status);
      return {
        pre: [],
        test: [
          'const items = pm.response.json();',
          `pm.test('each item is answered as the document shows (${statuses.join(', ')})', () =>`,
          `  pm.expect(items.map((i) => i.status)).to.eql(${js(statuses)}));`,
          '// What the batch registered is deleted, so a later run registers it again.',
          'for (const item of items.filter((i) => i.status === 201))',
          '  pm.sendRequest({',
          `    url: pm.variables.replaceIn('{{baseUrl}}/v1/entities/${collection}/') + encodeURIComponent(item.body[0].id) + pm.variables.replaceIn('?agrifarmId={{agrifarmId}}'),`,
          "    method: 'DELETE',",
          "    header: { 'Ocp-Apim-Sid-Key': pm.variables.get('sidKey'),",
          "      'Ocp-Apim-Subscription-Key': pm.variables.get('subscriptionKey'), 'If-Match': item.etag },",
          '  }, (err, res) => pm.test(`item ${item.index} is deleted again`, () => pm.expect(res && res.code).to.equal(204)));',
        ],
      };
    }
    default:
      return { pre: [], test: [] };
  }
}

function roleScripts(call: Call): { pre: string[]; test: string[] } {
  const { role } = call;
  switch (role.kind) {
    case 'lookup':
      return {
        pre: [],
        test: [
          'const [farm] = pm.response.json();',
          "pm.test('the farm has its URN', () => pm.expect(farm.id).to.match(/^urn:ngsi-ld:AgriFarm:\\d+$/));",
          "pm.collectionVariables.set('agrifarmId', farm.id);",
        ],
      };
    case 'record':
      return recordScripts(call, role.collection, role.step);
    case 'export':
      return {
        pre: [
          "const ids = JSON.parse(pm.collectionVariables.get('exported') || '[]');",
          "pm.collectionVariables.set('exportBody', JSON.stringify(ids.map((id) => ({ id }))));",
          "pm.collectionVariables.set('jobPolls', 0);",
        ],
        test: ["pm.collectionVariables.set('jobId', pm.response.json().id);"],
      };
    case 'jobStatus':
      return {
        // The next poll waits a second, as clients are asked to.
        pre: ["if (Number(pm.collectionVariables.get('jobPolls')) > 0) setTimeout(() => undefined, 1000);"],
        test: [
          'const status = pm.response.json().status.id;',
          "const polls = Number(pm.collectionVariables.get('jobPolls')) + 1;",
          "pm.collectionVariables.set('jobPolls', polls);",
          "if (['1', '2'].includes(status) && polls < 120) pm.execution.setNextRequest(pm.info.requestName);",
          "else pm.test('the job finished, every record in SIEX (status 3)', () => pm.expect(status).to.equal('3'));",
        ],
      };
    case 'jobResult':
      return {
        pre: [],
        test: [
          'const result = pm.response.json();',
          "const ids = JSON.parse(pm.collectionVariables.get('exported') || '[]').map((id) => Number(id.split(':').pop()));",
          "pm.test('the result names every record exported, none refused', () => {",
          '  pm.expect(result.error).to.eql([]);',
          '  pm.expect(result.data.map((d) => d.id).sort()).to.eql(ids.sort());',
          '});',
          "pm.collectionVariables.set('exported', '[]');",
        ],
      };
    case 'other':
    case 'setting':
      return { pre: [], test: [] };
  }
}

function assertions(doc: Document, call: Call): string[] {
  const codes = successes(call.op);
  const lines = [
    `pm.test('answers ${codes.join(' or ')}', () => pm.expect(${js(codes)}).to.include(pm.response.code));`,
  ];
  const shape = requiredProperties(doc, call.op);
  if (shape && shape.required.length > 0) {
    lines.push(
      `pm.test('the answer has ${shape.required.join(', ')}', () => {`,
      '  const body = pm.response.json();',
      shape.array ? '  pm.expect(body).to.be.an("array");' : '',
      `  for (const one of ${shape.array ? 'body' : '[body]'}) pm.expect(one).to.include.keys(${js(shape.required)});`,
      '});',
    );
  }
  return lines.filter(Boolean);
}

/** A query or header value: chained, computed when the request runs, or the document's example. */
function valueOf(p: Parameter, call: Call): string {
  const { role } = call;
  if (p.in === 'path' && p.name === 'id' && role.kind === 'record') return `{{${idVar(role.collection)}}}`;
  if (p.name === 'agrifarmId') return '{{agrifarmId}}';
  if (p.name === 'jobId') return '{{jobId}}';
  if (p.name === 'year') return '{{campaign}}';
  if (p.name === 'Idempotency-Key') return '{{$guid}}';
  if (p.name === 'If-Match' && role.kind === 'record') return `{{${etagVar(role.collection)}}}`;
  if (typeof p.example === 'string' && DATE.test(p.example)) return '{{today}}';
  return typeof p.example === 'string' ? p.example : js(p.example ?? '');
}

function item(doc: Document, call: Call): Json {
  const params = parametersOf(doc, call.op);
  // Optional parameters are there to switch on by hand, except the ones that make a write safe to repeat and change
  // only the version read.
  const on = (p: Parameter) => p.required === true || p.name === 'Idempotency-Key' || p.name === 'If-Match';
  const pathSegments = call.path
    .split('/')
    .filter(Boolean)
    .map((s) => {
      const name = /^\{(\w+)\}$/.exec(s)?.[1];
      return name
        ? valueOf(
            params.find((p) => p.name === name)!,
            call,
          )
        : s;
    });
  const query = params
    .filter((p) => p.in === 'query')
    .map((p) => ({ key: p.name, value: valueOf(p, call), ...(on(p) ? {} : { disabled: true }) }));
  const header = params
    .filter((p) => p.in === 'header')
    .map((p) => ({ key: p.name, value: valueOf(p, call), ...(on(p) ? {} : { disabled: true }) }));
  const example = requestExample(call.op);
  const body =
    call.role.kind === 'export'
      ? '{{exportBody}}'
      : example === undefined
        ? undefined
        : JSON.stringify(runTimeDates(example), null, 2);
  if (body !== undefined) header.push({ key: 'Content-Type', value: 'application/json' });
  const queryText = query
    .filter((q) => !q.disabled)
    .map((q) => `${q.key}=${q.value}`)
    .join('&');
  const { pre, test } = roleScripts(call);
  const event = [
    ...(pre.length ? [{ listen: 'prerequest', script: { type: 'text/javascript', exec: pre } }] : []),
    { listen: 'test', script: { type: 'text/javascript', exec: [...assertions(doc, call), ...test] } },
  ];
  return {
    name: call.op.summary ?? call.op.operationId,
    request: {
      method: call.method.toUpperCase(),
      header,
      url: {
        raw: `{{baseUrl}}/${pathSegments.join('/')}${queryText ? `?${queryText}` : ''}`,
        host: ['{{baseUrl}}'],
        path: pathSegments,
        query,
      },
      ...(body !== undefined ? { body: { mode: 'raw', raw: body, options: { raw: { language: 'json' } } } } : {}),
      description: [call.op.description, `Operation \`${call.op.operationId}\`.`].filter(Boolean).join('\n\n'),
    },
    event,
  };
}

/** The collection as committed: two-space JSON with a final newline. */
export function renderPostmanCollection(document: string): string {
  const doc = JSON.parse(document) as Document & { info: { title: string; description?: string } };
  const [demo] = buildDemoDataset().clients;
  if (!demo) throw new Error('the demo dataset has no client');
  const collection = {
    info: {
      name: doc.info.title,
      description:
        'Every operation of the gateway, in the order a client meets them, chained and asserted: a smoke test as it ' +
        'is (`npm run smoke -- --url <gateway>`, newman), and a way to try each call by hand. Generated from the ' +
        'OpenAPI document by `npm run openapi`; the keys and the farm are the demo data`s (`npm start`).',
      schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
    },
    item: calls(doc).map((call) => item(doc, call)),
    auth: {
      type: 'apikey',
      apikey: [
        { type: 'string', key: 'key', value: 'Ocp-Apim-Sid-Key' },
        { type: 'string', key: 'value', value: '{{sidKey}}' },
        { type: 'string', key: 'in', value: 'header' },
      ],
    },
    event: [{ listen: 'prerequest', script: { type: 'text/javascript', exec: COLLECTION_PRE_REQUEST } }],
    variable: [
      { key: 'baseUrl', value: 'http://127.0.0.1:7071' },
      { key: 'sidKey', value: demo.sidKey },
      { key: 'subscriptionKey', value: demo.apiKey },
    ],
  };
  return `${JSON.stringify(collection, null, 2)}\n`;
}
