import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostConfigFrom, parseTimeSpan } from '../../local/runner/host-config';
import { entryFiles } from '../../local/runner/load-app';
import { decodeMessage, encodeMessage, outputMessages, triggerMetadata } from '../../local/runner/queue-message';
import { resolveQueueName } from '../../local/runner/storage';
import { walkthrough } from '../../local/start';

/** The runner's small pieces: host.json, the files it loads, queue message handling, the start walkthrough. */

describe('host.json', () => {
  it('reads the project host.json', () => {
    const config = hostConfigFrom(JSON.parse(readFileSync(join(__dirname, '../../host.json'), 'utf8')));
    expect(config).toEqual({
      routePrefix: '',
      queues: {
        batchSize: 4,
        newBatchThreshold: 2,
        maxDequeueCount: 5,
        visibilityTimeoutMs: 30_000,
        maxPollingIntervalMs: 500,
        messageEncoding: 'base64',
      },
    });
  });

  it("uses the host's defaults", () => {
    expect(hostConfigFrom({})).toEqual({
      routePrefix: 'api',
      queues: {
        batchSize: 16,
        newBatchThreshold: 8,
        maxDequeueCount: 5,
        visibilityTimeoutMs: 0,
        maxPollingIntervalMs: 60_000,
        messageEncoding: 'base64',
      },
    });
  });

  it('reads keys case-insensitively, as .NET configuration does', () => {
    const config = hostConfigFrom({ Extensions: { HTTP: { RoutePrefix: '/x/' }, Queues: { BatchSize: 2 } } });
    expect(config.routePrefix).toBe('x');
    expect(config.queues.batchSize).toBe(2);
  });

  it('parses TimeSpans', () => {
    expect(parseTimeSpan('00:00:30', 't')).toBe(30_000);
    expect(parseTimeSpan('00:00:00.250', 't')).toBe(250);
    expect(parseTimeSpan('1.02:03:04', 't')).toBe(((24 + 2) * 3600 + 3 * 60 + 4) * 1000);
    expect(parseTimeSpan('00:05', 't')).toBe(300_000);
    expect(() => parseTimeSpan('30s', 'extensions.queues.visibilityTimeout')).toThrow(/visibilityTimeout/);
  });

  it('rejects out-of-range queue settings', () => {
    expect(() => hostConfigFrom({ extensions: { queues: { batchSize: 64 } } })).toThrow(/batchSize/);
    expect(() => hostConfigFrom({ extensions: { queues: { maxPollingInterval: '00:00:00.050' } } })).toThrow(/100 ms/);
    expect(() => hostConfigFrom({ extensions: { queues: { messageEncoding: 'utf7' } } })).toThrow(/messageEncoding/);
  });
});

describe('the files package.json main names', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'runner-main-'));
    for (const file of [
      'dist/functions/b.js',
      'dist/functions/a.js',
      'dist/functions/a.js.map',
      'dist/functions/sub/c.js',
      'dist/x.mjs',
      'dist/.hidden/d.js',
    ]) {
      mkdirSync(join(dir, file, '..'), { recursive: true });
      writeFileSync(join(dir, file), '');
    }
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ main: 'dist/functions/*.js' }));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('expands package.json main, sorted', () => {
    expect(entryFiles(dir)).toEqual({
      pattern: 'dist/functions/*.js',
      files: ['dist/functions/a.js', 'dist/functions/b.js'],
    });
  });

  it('takes an override: **, braces, a plain path, and nothing for a missing one', () => {
    expect(entryFiles(dir, 'dist/**/*.js').files).toEqual([
      'dist/functions/a.js',
      'dist/functions/b.js',
      'dist/functions/sub/c.js',
    ]);
    expect(entryFiles(dir, 'dist/**/*.{js,mjs}').files).toContain('dist/x.mjs');
    expect(entryFiles(dir, './dist/functions/a.js').files).toEqual(['dist/functions/a.js']);
    expect(entryFiles(dir, 'dist/nothing/*.js').files).toEqual([]);
  });

  it('says what is wrong with the package.json', () => {
    const empty = mkdtempSync(join(tmpdir(), 'runner-main-'));
    try {
      expect(() => entryFiles(empty)).toThrow(/needs a package\.json/);
      writeFileSync(join(empty, 'package.json'), '{}');
      expect(() => entryFiles(empty)).toThrow(/has no "main"/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('queue messages', () => {
  it('decodes strict base64 only', () => {
    expect(decodeMessage(Buffer.from('{"a":1}').toString('base64'), 'base64')?.toString()).toBe('{"a":1}');
    expect(decodeMessage('not base64!', 'base64')).toBeUndefined();
    expect(decodeMessage('abc', 'base64')).toBeUndefined();
    expect(decodeMessage('plain', 'none')?.toString()).toBe('plain');
  });

  it('encodes output messages as the trigger expects them', () => {
    expect(encodeMessage('{"jobId":1}', 'base64')).toBe(Buffer.from('{"jobId":1}').toString('base64'));
    expect(encodeMessage('x', 'none')).toBe('x');
  });

  it('splits output binding values into messages', () => {
    expect(outputMessages({ json: '{"a":1}' })).toEqual(['{"a":1}']);
    expect(outputMessages({ json: '[{"a":1},"two"]' })).toEqual(['{"a":1}', 'two']);
    expect(outputMessages({ string: 'text' })).toEqual(['text']);
    expect(outputMessages(undefined)).toEqual([]);
  });

  it('builds trigger metadata with the host names', () => {
    const at = new Date('2026-01-02T03:04:05Z');
    const meta = triggerMetadata(
      {
        messageId: 'id-1',
        popReceipt: 'pr',
        messageText: 'x',
        dequeueCount: 3,
        insertedOn: at,
        expiresOn: at,
        nextVisibleOn: at,
      },
      Buffer.from('{"k":1}'),
      'fn',
    );
    expect(meta.DequeueCount).toEqual({ json: '3' });
    expect(meta.Id).toEqual({ json: '"id-1"' });
    expect(meta.InsertionTime).toEqual({ json: '"2026-01-02T03:04:05.000Z"' });
    expect(meta.QueueTrigger).toEqual({ string: '{"k":1}' });
  });

  it('resolves %setting% queue names and validates them', () => {
    expect(resolveQueueName('%Q%-poison', { Q: 'Export-Jobs' })).toBe('export-jobs-poison');
    expect(() => resolveQueueName('%MISSING%', {})).toThrow(/MISSING/);
    expect(() => resolveQueueName('a', {})).toThrow(/not a valid queue name/);
    expect(() => resolveQueueName('a--b', {})).toThrow(/not a valid queue name/);
  });
});

describe('npm start', () => {
  it("prints the first client's keys and curl commands for its first farm and the OpenAPI document", () => {
    const text = walkthrough(
      'http://127.0.0.1:7071',
      {
        clients: [{ id: 'erp', name: 'Demo ERP', sidKey: 'sid-key-123', apiKey: "api'key", farms: ['46000000001'] }],
        farms: [
          { rea: '99', year: 2020 },
          { rea: '46000000001', year: 2026 },
        ],
      },
      'local/demo/dataset.json',
    );
    expect(text).toContain('Ocp-Apim-Sid-Key: sid-key-123');
    expect(text).toContain("Ocp-Apim-Subscription-Key: api'key");
    expect(text).toContain(
      "curl -s 'http://127.0.0.1:7071/v1/siex/farms?rea=46000000001&year=2026' -H 'Ocp-Apim-Sid-Key: sid-key-123' -H 'Ocp-Apim-Subscription-Key: api'\\''key'",
    );
    expect(text).toContain('curl -s http://127.0.0.1:7071/v1/openapi.json');
    expect(text).toContain(
      'API reference (every operation, with its schemas and examples): http://127.0.0.1:7071/docs',
    );
  });

  it('shows where the keys go, not their hashes, when the dataset holds the keys hashed', () => {
    const sidHash = `sha256:${'1'.repeat(64)}`;
    const text = walkthrough(
      'http://h:1',
      { clients: [{ id: 'erp', sidKey: sidHash, apiKey: `sha256:${'2'.repeat(64)}`, farms: ['46000000001'] }] },
      'ops.json',
    );
    expect(text).not.toContain('sha256:');
    expect(text).toContain("-H 'Ocp-Apim-Sid-Key: <the SID key>' -H 'Ocp-Apim-Subscription-Key: <the API key>'");
    expect(text).toContain('ops.json holds keys as their hashes: use the keys npm run admin -- new-key printed');
  });

  it('still points at the OpenAPI document without a dataset', () => {
    expect(walkthrough('http://h:1', undefined, 'x.json')).toContain('/v1/openapi.json');
    expect(walkthrough('http://h:1', undefined, 'x.json')).toContain('http://h:1/docs');
  });
});
