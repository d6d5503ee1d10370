import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findProjectRoot } from '../../local/stack';
import { RunnerProcess } from '../../local/runner/process';
import { dataset, testClient, testFarm, uniqueRea } from '../helpers/dataset';
import { call, Keys, seed } from '../helpers/http';
import { startHttpOnlyRunner } from '../helpers/http-only';
import { storageConnection } from '../support/stack-env';
import { mailStubControl } from '../../local/mail-stub/control';
import { PrivatePipeline, startPrivatePipeline } from '../helpers/export-private-stack';
import { exportFarm, gatewayCalls, request, SIEX_FIELDS, theOnlyMail } from '../helpers/export-stack';
import { body, REGISTER_PATH } from '../helpers/phyto-stack';

/**
 * Neither the runner's output nor the app's own log shows a key, a NIF or an e-mail address in clear.
 *
 * The runner's output never shows a key in clear, whatever it arrives under: a runner of this file's own, verbose
 * (access lines with each request's headers), is sent keys in headers and in query parameters with innocent names
 * (`?sid=`, `?x=`), in a path, and alone in a query string. Then its whole output is searched for every key.
 * `known` is in the dataset the runner was told about; `learned` reaches it only in headers, first.
 */
const ROOT = findProjectRoot(__dirname);
const rea = uniqueRea();
const known = testClient('redact-known', [rea]);
const learned = testClient('redact-learned', [rea]);
const FARM = `/v1/siex/farms?rea=${rea}&year=2026`;
const lines: string[] = [];
let dir: string;
let runner: RunnerProcess;

/** The key with its first character percent-encoded (`%64emo-sid-…`), and with every one. */
const oddly = (key: string) => `%${key.charCodeAt(0).toString(16).toUpperCase()}${key.slice(1)}`;
const everyChar = (key: string) =>
  [...key].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('');

const headersOf = (keys: Keys) => ({ 'Ocp-Apim-Sid-Key': keys.sidKey, 'Ocp-Apim-Subscription-Key': keys.apiKey });

beforeAll(async () => {
  await seed(dataset({ clients: [known, learned], farms: [testFarm(rea)] }));
  dir = mkdtempSync(path.join(tmpdir(), 'siex-redaction-'));
  const file = path.join(dir, 'dataset.json');
  writeFileSync(file, JSON.stringify(dataset({ clients: [known] })));
  runner = await startHttpOnlyRunner({
    projectRoot: ROOT,
    env: { ...process.env, AzureWebJobsStorage: storageConnection(), AUTH_MODE: 'local' },
    verbose: true,
    dataset: file,
    onLine: (line) => lines.push(line),
  });
});

afterAll(async () => {
  await runner?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("the runner's log", () => {
  it('never shows a key, in headers, in query parameters of any name, in a path, or alone in a query string', async () => {
    const send = (method: 'GET' | 'POST', target: string, keys?: Keys, body?: string) =>
      call(method, target, {
        base: runner.url,
        headers: { ...(keys ? headersOf(keys) : {}), 'Content-Type': 'application/json' },
        body,
      });
    const answers = [
      await send('GET', FARM, known),
      await send('GET', `${FARM}&sid=${known.sidKey}&x=${known.apiKey}`, known),
      // Alone in the query: no header ever showed these; the dataset did.
      await send('GET', `${FARM}&sid=${known.sidKey}&x=${encodeURIComponent(known.apiKey)}`),
      await send('GET', `${FARM}&x=${learned.sidKey}&y=${learned.apiKey}`, learned),
      await send(
        'GET',
        `/v1/entities/agriphytosanitarys/${learned.apiKey}/history?agrifarmId=${learned.sidKey}`,
        learned,
      ),
      await send('POST', `/v1/siex/listidcp/?q=${learned.apiKey}`, learned, JSON.stringify({ key: learned.sidKey })),
      await send('GET', `/nowhere/${learned.sidKey}?k=${known.apiKey}`),
      // Percent-encoded otherwise than encodeURIComponent would (issue 36): the app reads them as the keys.
      await send('GET', `${FARM}&sid=${oddly(known.sidKey)}`),
      await send('GET', `/nowhere/${everyChar(learned.sidKey)}?k=${everyChar(known.apiKey).toLowerCase()}`),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 401, 200, 400, 400, 404, 401, 404]);
    await runner.stop();

    const output = lines.join('\n');
    // The requests were logged, with what was hidden marked as such.
    expect(lines.filter((l) => /^(\[gateway\] )?(GET|POST) /.test(l.trim()))).toHaveLength(answers.length);
    expect(output).toContain('[redacted]');
    for (const key of [known.sidKey, known.apiKey, learned.sidKey, learned.apiKey]) {
      expect(output).not.toContain(key);
      expect(output).not.toContain(encodeURIComponent(key));
      for (const form of [oddly(key), everyChar(key), everyChar(key).toLowerCase()]) {
        expect(output).not.toContain(form);
      }
    }
  });
});

/**
 * The app's own log, before the runner scrubs anything: what the Functions host would send to Application Insights
 * (the runner's --telemetry file). A runner of this file's own, on a private export pipeline (its SIEX simulator, mail
 * stub and queues), is sent a whole export: registrations carrying NIFs, the export, its SIEX calls, and an e-mail the
 * mail service fails at first (the failure names the recipient). Then the file is searched for every key, NIF and
 * address the run used, and the job's events are read back by their correlation id.
 */
describe("the app's own log, through a whole export", () => {
  let pipe: PrivatePipeline;

  afterAll(async () => {
    await pipe?.stop();
  });

  it('shows no key, NIF or address it was given, and one correlation id follows the export to SIEX and the e-mail', async () => {
    pipe = await startPrivatePipeline('runner-redaction');
    const farm = await exportFarm('redact-export');
    const telemetry = path.join(dir, 'telemetry.ndjson');
    const runner = await pipe.runnerWith(`r${Date.now().toString(36)}`, {}, { telemetry, verbose: true });
    const gw = gatewayCalls(runner.url);

    const sent = [0, 1].map((i) => body({ idcp: [farm.vine[i]], ...SIEX_FIELDS }));
    const urns: string[] = [];
    for (const b of sent) {
      const res = await request(runner.url, 'POST', `${REGISTER_PATH}?agrifarmId=${farm.agrifarmId}`, {
        keys: farm.keys,
        body: b,
      });
      expect(res.status).toBe(201);
      urns.push(res.json[0].id);
    }
    // More failures than the mail SDK retries within a delivery: the first delivery fails naming the recipient.
    await mailStubControl(pipe.mail.url).failNext(4);
    const exported = await gw.exportCue(farm, urns);
    expect(exported.status).toBe(202);
    const jobId = Number(exported.json.id);
    expect(Number((await gw.settled(farm.keys, jobId)).job.status.id)).toBe(3);
    await theOnlyMail(pipe.mail.url, jobId);
    await runner.stop();

    const text = readFileSync(telemetry, 'utf8');
    // Every NIF the run used: the registrations', and the holder's and applicators' SIEX received in the documents.
    const nifs = [
      ...new Set(JSON.stringify([sent, pipe.siex.state.listSubmissions(true)]).match(/\b(\d{8}|[XYZ]\d{7})[A-Z]\b/g)),
    ];
    expect(nifs.length).toBeGreaterThanOrEqual(2);
    // The log saw the run: the failed delivery named the mail service's refusal.
    expect(text).toContain("Executed 'exportWorker' (Failed)");
    for (const secret of [farm.keys.sidKey, farm.keys.apiKey, farm.client.email, ...nifs]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(encodeURIComponent(secret));
    }

    const entries = text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { functionName?: string; message: string });
    const events = entries.flatMap((e): Record<string, any>[] => {
      if (!e.message.startsWith('{"event":')) return [];
      const event = JSON.parse(e.message) as Record<string, any>;
      return event.jobId === jobId ? [{ ...event, functionName: e.functionName }] : [];
    });
    const created = events.find((e) => e.event === 'job.state' && e.to === 'Iniciando');
    expect(created).toMatchObject({ functionName: 'exportCue', from: null, total: 2 });
    expect(created!.correlationId).toMatch(/^\S+$/);
    expect(new Set(events.map((e) => e.correlationId))).toEqual(new Set([created!.correlationId]));
    expect(events.filter((e) => e.event === 'job.state').map((e) => e.to)).toEqual([
      'Iniciando',
      'EnProceso',
      'FinalizadoCompleto',
    ]);
    const calls = events.filter((e) => e.event === 'siex.call');
    expect(calls.map((e) => e.operation)).toEqual(expect.arrayContaining(['comunicacion', 'crear', 'comprobarEstado']));
    expect(calls.every((e) => e.outcome === 'ok' && typeof e.durationMs === 'number')).toBe(true);
    expect(events.filter((e) => e.event === 'mail.sent').map((e) => [e.outcome, e.to])).toEqual([
      ['failed', `***@${farm.client.email.split('@')[1]}`],
      ['sent', `***@${farm.client.email.split('@')[1]}`],
    ]);
  });
});
