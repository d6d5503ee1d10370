import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findProjectRoot } from '../../local/stack';
import { RunnerProcess } from '../../local/runner/process';
import { dataset, testClient, testFarm, uniqueRea } from '../helpers/dataset';
import { call, Keys, seed } from '../helpers/http';
import { startHttpOnlyRunner } from '../helpers/http-only';
import { storageConnection } from '../support/stack-env';

/**
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
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 401, 200, 400, 400, 404]);
    await runner.stop();

    const output = lines.join('\n');
    // The requests were logged, with what was hidden marked as such.
    expect(lines.filter((l) => /^(\[gateway\] )?(GET|POST) /.test(l.trim()))).toHaveLength(answers.length);
    expect(output).toContain('[redacted]');
    for (const key of [known.sidKey, known.apiKey, learned.sidKey, learned.apiKey]) {
      expect(output).not.toContain(key);
      expect(output).not.toContain(encodeURIComponent(key));
    }
  });
});
