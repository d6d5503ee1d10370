import { request as httpRequest } from 'node:http';
import { Dataset } from '../../shared/backoffice/dataset-schema';
import { validateDataset } from '../../shared/backoffice/dataset-validation';
import { importDataset } from '../../shared/backoffice/import';
import { gatewayUrl } from '../support/stack-env';
import { testTables } from './storage';

export { gatewayUrl };

export interface Keys {
  sidKey: string;
  apiKey: string;
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: any;
}

function keyHeaders(keys: Keys): Record<string, string> {
  return { 'Ocp-Apim-Sid-Key': keys.sidKey, 'Ocp-Apim-Subscription-Key': keys.apiKey };
}

/** One request to the gateway (or to `base`) through fetch; `keys` adds both key headers. */
export async function call(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  options: { keys?: Keys; headers?: Record<string, string>; body?: string | Buffer; base?: string } = {},
): Promise<Reply> {
  const res = await fetch(`${options.base ?? gatewayUrl()}${path}`, {
    method,
    headers: { ...(options.keys ? keyHeaders(options.keys) : {}), ...options.headers },
    body: options.body,
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

export function get(path: string, keys?: Keys, headers?: Record<string, string>): Promise<Reply> {
  return call('GET', path, { keys, headers });
}

export function postJson(path: string, body: unknown, keys?: Keys, headers?: Record<string, string>): Promise<Reply> {
  return call('POST', path, {
    keys,
    body: JSON.stringify(body),
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

/**
 * A POST whose body is sent with `Transfer-Encoding: chunked` and no Content-Length, through node's http module
 * (fetch would buffer and measure it): the size limit must hold on the bytes that arrive, not on a header.
 */
export function postChunked(path: string, chunks: Buffer[], headers: Record<string, string>): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${gatewayUrl()}${path}`,
      { method: 'POST', headers: { ...headers, 'Transfer-Encoding': 'chunked' } },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () => {
          const text = Buffer.concat(parts).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
          resolve({ status: res.statusCode ?? 0, headers: h, text, json });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (req.getHeader('content-length') !== undefined)
      reject(new Error('a chunked request must not carry Content-Length'));
    (async () => {
      for (const chunk of chunks) {
        if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
      }
      req.end();
    })().catch(reject);
  });
}

/** Imports a dataset into the stack's Azurite (or `tables`), as `npm run admin -- import` does (validated first). */
export async function seed(input: Dataset, tables = testTables()): Promise<void> {
  const checked = validateDataset(JSON.parse(JSON.stringify(input)));
  if (!checked.dataset) throw new Error(`test dataset is invalid: ${JSON.stringify(checked.problems)}`);
  await importDataset(checked.dataset, tables);
}

/** The spec's listidcp body for a crop and enclosures (each inner list is one regionalAttributes item). */
export function listIdcpBody(
  crop: { typecropId: string; typecropName?: string; code: number; name?: string },
  sigpac: { prov: string; town: string; aggr: string; zone: string; pol: string; parc: string; enc: string }[][],
): Record<string, unknown> {
  return {
    type: 'IDCP',
    crop: {
      type: 'TypeCropVariety',
      typecrop: { id: crop.typecropId, type: 'TypeCrop', name: crop.typecropName ?? 'VIÑA' },
      code: crop.code,
      name: crop.name ?? 'TEMPRANILLO',
    },
    regionalAttributes: sigpac.map((list) => ({ sigpac: list })),
  };
}
