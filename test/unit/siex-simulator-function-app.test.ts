import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { HttpRequest, HttpResponse } from '@azure/functions';
import { parseSettings } from '../../shared/config/config';
import { createIuwsClient, IuwsClient } from '../../shared/siex/iuws-client';
import {
  isOperatorPath,
  simulatorCredentials,
  SimulatorHandler,
  simulatorHandlers,
} from '../../local/siex-simulator/function-app';
import { RunningSiexSimulator, startSiexSimulator } from '../../local/siex-simulator/server';
import { settledStatus } from '../helpers/iuws-settled';
import { cueDocument, schemaSections, tratamFito } from '../integration/iuws-fixtures';

/**
 * The sandbox's SIEX Function App wrapper over real HTTP: a stand-in for the Functions host (an HTTP server that turns
 * each request into an @azure/functions HttpRequest, picks the door by route as the host's routes do, and writes the
 * handler's HttpResponseInit back), the wrapped simulator on loopback, and the gateway's own IUWS client in front.
 */

const CREDENTIALS = { username: 'siex-sandbox', password: 'a sandbox password' };

let simulator: RunningSiexSimulator | undefined;
let starts = 0;
const handlers = simulatorHandlers(async () => {
  starts += 1;
  simulator = await startSiexSimulator({ port: 0, ...CREDENTIALS, knobs: { processingMs: 0 }, log: () => {} });
  return simulator;
});

/** What the host does with a request: to the function whose route matches (operator paths first), and back. */
async function asHost(door: SimulatorHandler, req: IncomingMessage, res: ServerResponse, base: string): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = Object.fromEntries(
    Object.entries(req.headers).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])),
  );
  const request = new HttpRequest({
    method: req.method ?? 'GET',
    url: `${base}${req.url ?? '/'}`,
    headers,
    ...(chunks.length > 0 ? { body: { bytes: new Uint8Array(Buffer.concat(chunks)) } } : {}),
  });
  const answer = new HttpResponse(await door(request));
  res.writeHead(answer.status ?? 200, Object.fromEntries(answer.headers.entries()));
  res.end(Buffer.from(await answer.arrayBuffer()));
}

let host: Server;
let base: string;
/** The anonymous door only (which route the host picks must not matter), or the host's routing. */
let anonymousOnly = false;

beforeAll(async () => {
  host = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://host').pathname;
    const door = !anonymousOnly && isOperatorPath(path) ? handlers.operator : handlers.iuws;
    asHost(door, req, res, base).catch((e: unknown) => {
      res.writeHead(500);
      res.end(String(e));
    });
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => host.close(() => resolve()));
  await simulator?.stop();
});
afterEach(() => {
  anonymousOnly = false;
});

function gatewayClient(password = CREDENTIALS.password, attempts = '1'): IuwsClient {
  return createIuwsClient(
    parseSettings({
      AzureWebJobsStorage: 'UseDevelopmentStorage=true',
      SIEX_BASE_URL: base,
      SIEX_USERNAME: CREDENTIALS.username,
      SIEX_PASSWORD: password,
      SIEX_TIMEOUT_MS: '5000',
      SIEX_MAX_ATTEMPTS: attempts,
      SIEX_RETRY_BASE_MS: '10',
    }),
    schemaSections(),
  );
}

describe('the SIEX simulator as a Function App', () => {
  it("answers the gateway's IUWS client as the simulator does: a document submitted, then every record accepted", async () => {
    const client = gatewayClient();
    const id = await client.submit(cueDocument([tratamFito(7001)]), 'sandbox-1');
    expect(id).toMatch(/^SIM-/);
    expect(await settledStatus(client, id)).toEqual({
      state: 'done',
      results: [{ externalId: 7001, section: 'TratamFito', ok: true, errors: [] }],
    });
    // One simulator for every request: what the gateway submitted is in the notebook the operator's door shows.
    expect(starts).toBe(1);
    const notebook = await fetch(`${base}/_inspect/notebook/TratamFito`);
    expect(notebook.status).toBe(200);
    expect(((await notebook.json()) as { idAjena: number }[]).map((e) => e.idAjena)).toContain(7001);
  });

  it('refuses credentials other than the app settings say', async () => {
    await expect(
      gatewayClient('not the password').submit(cueDocument([tratamFito(7002)]), 'sandbox-2'),
    ).rejects.toThrow(/credentials/);
  });

  it('passes the knobs through the operator door, with their status and body', async () => {
    const set = await fetch(`${base}/_control`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ latencyMs: 0 }),
    });
    expect(set.status).toBe(200);
    expect(await set.json()).toMatchObject({ latencyMs: 0, processingMs: 0 });
    const bad = await fetch(`${base}/_control`, { method: 'POST', body: JSON.stringify({ noSuchKnob: 1 }) });
    expect(bad.status).toBe(400);
    const wrongMethod = await fetch(`${base}/_control/reset`);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
  });

  it('keeps /_control and /_inspect behind the key whichever route the host picks: the anonymous door refuses them', async () => {
    anonymousOnly = true;
    for (const path of ['/_control', '/_control/reset', '/_inspect/stats', '/_inspect/notebook']) {
      const answer = await fetch(`${base}${path}`, { method: path === '/_control/reset' ? 'POST' : 'GET' });
      expect({ path, status: answer.status }).toEqual({ path, status: 404 });
    }
    // Paths that only start alike are the simulator's to answer (404 there too, but from the simulator).
    const other = await fetch(`${base}/_controlled`);
    expect(other.status).toBe(404);
  });

  it('answers 502 when the simulator drops a crear answer, and the gateway retries it into one submission', async () => {
    const stats = async () =>
      (await (await fetch(`${base}/_inspect/stats`)).json()) as { submissions: number; calls: { crear: number } };
    const before = await stats();
    const knob = await fetch(`${base}/_control`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ resetCrearNext: 1 }),
    });
    expect(knob.status).toBe(200);
    const id = await gatewayClient(CREDENTIALS.password, '2').submit(cueDocument([tratamFito(7003)]), 'sandbox-3');
    expect(id).toMatch(/^SIM-/);
    const after = await stats();
    expect(after.calls.crear - before.calls.crear).toBe(2);
    expect(after.submissions - before.submissions).toBe(1);
  });
});

describe('the Function App settings', () => {
  it('takes the credentials from SIMULATOR_USERNAME and SIMULATOR_PASSWORD', () => {
    expect(simulatorCredentials({ SIMULATOR_USERNAME: 'u', SIMULATOR_PASSWORD: 'p' })).toEqual({
      username: 'u',
      password: 'p',
    });
  });

  it('refuses a Key Vault reference left unresolved, or a missing setting, rather than start with it', () => {
    expect(() =>
      simulatorCredentials({
        SIMULATOR_USERNAME: 'u',
        SIMULATOR_PASSWORD: '@Microsoft.KeyVault(VaultName=kv;SecretName=siex-password)',
      }),
    ).toThrow(/siex-password/);
    expect(() => simulatorCredentials({ SIMULATOR_USERNAME: 'u' })).toThrow(/SIMULATOR_PASSWORD/);
  });
});
