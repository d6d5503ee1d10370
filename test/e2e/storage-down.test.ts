import { RunnerProcess } from '../../local/runner/process';
import { findProjectRoot } from '../../local/stack';
import { body, REGISTER_PATH } from '../helpers/phyto-stack';
import { ExportFarm, exportFarm, registerRecords, request } from '../helpers/export-stack';
import { checkProblemShape } from '../helpers/spec-shapes';
import { startTcpFaultProxy, TcpFaultProxy } from '../helpers/tcp-fault-proxy';
import { storageConnection, storageSettings } from '../support/stack-env';
import { Reply } from '../helpers/http';
import { CAMPAIGN } from '../helpers/dataset';
import { startHttpOnlyRunner } from '../helpers/http-only';

/**
 * Issue 15, finding 5: with its storage down or hanging, the gateway answers 503 STORAGE_UNAVAILABLE with Retry-After,
 * well inside the interface's 30-second response time-out, and serves again as soon as storage is back. A runner of
 * its own reaches the tables through a TCP proxy the test breaks (queues stay direct, so the runner can start; it
 * serves HTTP only, so no other test's export lands on it).
 */

let proxy: TcpFaultProxy;
let runner: RunnerProcess;
let farm: ExportFarm;
let record: string;

beforeAll(async () => {
  farm = await exportFarm('storage-down');
  [record] = await registerRecords(farm, 1);
  const conn = storageConnection();
  const tablePort = Number(/TableEndpoint=http:\/\/[^:;]+:(\d+)/.exec(conn)![1]);
  proxy = await startTcpFaultProxy(tablePort);
  runner = await startHttpOnlyRunner({
    projectRoot: findProjectRoot(__dirname),
    quiet: true,
    env: {
      ...process.env,
      // The first account's tables through the proxy: clients, farms and jobs are there, so every call reads it,
      // whichever account the farm's rows are in (the others are reached directly).
      ...storageSettings((connection, account) =>
        account === 0
          ? connection.replace(/TableEndpoint=http:\/\/[^:;]+:\d+/, `TableEndpoint=http://127.0.0.1:${proxy.port}`)
          : connection,
      ),
      AUTH_MODE: 'local',
      RATE_LIMIT_PER_MINUTE: '100000',
      // Every request reads storage: nothing is served from memory, so every one meets the outage.
      REFERENCE_CACHE_SECONDS: '0',
    },
  });
});

afterAll(async () => {
  await runner?.stop();
  await proxy?.stop();
});

const calls: [string, () => Promise<Reply>][] = [
  [
    'farm lookup',
    () => request(runner.url, 'GET', `/v1/siex/farms?rea=${farm.rea}&year=${CAMPAIGN}`, { keys: farm.keys }),
  ],
  [
    'register',
    () =>
      request(runner.url, 'POST', `${REGISTER_PATH}?agrifarmId=${encodeURIComponent(farm.agrifarmId)}`, {
        keys: farm.keys,
        body: body({ idcp: [farm.vine[1]] }),
        headers: { 'Idempotency-Key': `storage-down-${farm.rea}` },
      }),
  ],
  [
    'list',
    () =>
      request(runner.url, 'GET', `${REGISTER_PATH}?agrifarmId=${encodeURIComponent(farm.agrifarmId)}`, {
        keys: farm.keys,
      }),
  ],
  [
    'export',
    () =>
      request(runner.url, 'POST', `/v1/entities/siex/exportCUE?agrifarmId=${encodeURIComponent(farm.agrifarmId)}`, {
        keys: farm.keys,
        body: [{ id: record }],
      }),
  ],
  ['job status', () => request(runner.url, 'GET', '/api-service/v1/entities/jobstatus?jobId=1', { keys: farm.keys })],
];

function expectUnavailable(name: string, reply: Reply): void {
  expect([name, reply.status, reply.headers.get('retry-after')]).toEqual([name, 503, '5']);
  checkProblemShape(reply.json, 503);
  expect(reply.json.errors.map((e: { code: string }) => e.code)).toEqual(['STORAGE_UNAVAILABLE']);
  // Nothing about the storage itself (its address, the SDK's words) reaches the client.
  expect(reply.text).not.toMatch(/127\.0\.0\.1|ECONN|devstoreaccount1|RestError/);
}

describe('storage down (connections refused)', () => {
  it('answers every endpoint 503 STORAGE_UNAVAILABLE with Retry-After within seconds', async () => {
    expect((await calls[0][1]()).status).toBe(200);
    await proxy.mode('down');
    // A gateway that waited on storage instead would answer nothing before this test's time-out.
    for (const [name, call] of calls) expectUnavailable(name, await call());
  });

  it('serves again once storage is back; the registration retried with its key is stored once', async () => {
    await proxy.mode('pass');
    const [lookup, register] = calls;
    expect((await lookup[1]()).status).toBe(200);
    const first = await register[1]();
    expect(first.status).toBe(201);
    const again = await register[1]();
    expect([again.status, again.text]).toEqual([201, first.text]);
  });
});

describe('storage hanging (connections accepted, never answered)', () => {
  it('answers 503 STORAGE_UNAVAILABLE inside the 30-second response time-out, not never', async () => {
    await proxy.mode('hang');
    // The proxy never answers: the 503 itself is the request's storage deadline ending the wait.
    expectUnavailable('farm lookup', await calls[0][1]());
    await proxy.mode('pass');
    expect((await calls[0][1]()).status).toBe(200);
  });
});
