/**
 * The Postman collection (clients/postman/), converted from the OpenAPI document by Postman's own converter
 * (openapi-to-postmanv2), so trying the API by hand needs no code and cannot drift from it: `npm run openapi` writes
 * it beside the document, and the same staleness check covers both. The converter is given only values the document
 * holds, and its random parts are taken out, so the same document always gives the same file.
 */
import { convertV2 } from 'openapi-to-postmanv2';
import { buildDemoDataset } from './demo/build-dataset';

type Json = Record<string, unknown>;

/**
 * A parameter without an example would be filled from its pattern at random on every run: it gets a placeholder
 * naming its type instead, as the converter writes for a schema it does not fake.
 */
function withPlaceholderExamples(document: Json): Json {
  const copy = structuredClone(document);
  for (const methods of Object.values(copy.paths as Record<string, Record<string, Json>>))
    for (const operation of Object.values(methods))
      for (const p of (operation.parameters ?? []) as Json[])
        if (p.example === undefined && p.examples === undefined)
          p.example = `<${String((p.schema as { type?: string } | undefined)?.type ?? 'string')}>`;
  return copy;
}

/**
 * What the converter makes up: item ids (Postman assigns its own on import) and saved answers, whose bodies and
 * headers it fakes at random from the schemas. The requests are what a person tries; the answers, with their demo
 * examples, are in the API reference (`/docs`) and the request's own documentation.
 */
function withoutRandomParts(key: string, value: unknown): unknown {
  if (key === 'id' || key === '_postman_id') return undefined;
  if (key === 'response' && Array.isArray(value)) return [];
  return value;
}

/** Both keys on every request: the collection's API-key auth sends one header, a pre-request script the other. */
function withKeys(collection: Json): Json {
  const [demo] = buildDemoDataset().clients;
  if (!demo) throw new Error('the demo dataset has no client');
  return {
    ...collection,
    auth: {
      type: 'apikey',
      apikey: [
        { type: 'string', key: 'key', value: 'Ocp-Apim-Sid-Key' },
        { type: 'string', key: 'value', value: '{{sidKey}}' },
        { type: 'string', key: 'in', value: 'header' },
      ],
    },
    event: [
      {
        listen: 'prerequest',
        script: {
          type: 'text/javascript',
          exec: [
            "pm.request.headers.upsert({ key: 'Ocp-Apim-Subscription-Key', value: pm.variables.get('subscriptionKey') });",
          ],
        },
      },
    ],
    variable: [
      { key: 'baseUrl', value: 'http://127.0.0.1:7071' },
      { key: 'sidKey', value: demo.sidKey },
      { key: 'subscriptionKey', value: demo.apiKey },
    ],
  };
}

/** The collection as committed: two-space JSON with a final newline. */
export function renderPostmanCollection(document: string): Promise<string> {
  return new Promise((resolve, reject) => {
    convertV2(
      { type: 'json', data: withPlaceholderExamples(JSON.parse(document) as Json) },
      {
        folderStrategy: 'Tags',
        parametersResolution: 'Example',
        schemaFaker: false,
        includeAuthInfoInExample: false,
      },
      (error, result) => {
        const data = result?.output?.[0]?.data;
        if (error || !result?.result || !data)
          return reject(
            error instanceof Error ? error : new Error(`openapi-to-postmanv2: ${result?.reason ?? 'no collection'}`),
          );
        const collection = JSON.parse(JSON.stringify(data, withoutRandomParts)) as Json;
        resolve(`${JSON.stringify(withKeys(collection), null, 2)}\n`);
      },
    );
  });
}
