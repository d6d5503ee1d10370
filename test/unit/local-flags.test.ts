import { parseWebhookReceiverArgs, WEBHOOK_RECEIVER_USAGE } from '../../local/webhook-receiver/main';
import { LOCAL_WEBHOOK_SIGNING_KEY } from '../../local/webhook-receiver/server';
import { intFlag, nonEmptyFlag } from '../../local/cli-args';
import { MAIL_STUB_ACCESS_KEY } from '../../local/mail-stub/server';
import { MAIL_STUB_USAGE, parseMailStubArgs } from '../../local/mail-stub/main';
import { RUNNER_USAGE, parseRunnerArgs } from '../../local/runner/args';
import { DEFAULT_HEADERS_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS } from '../../local/runner/http-server';
import { SIMULATOR_USAGE, parseSimulatorArgs } from '../../local/siex-simulator/main';
import { START_USAGE, parseStartArgs } from '../../local/start';

/** The flags of the local commands, read by node:util parseArgs: defaults, every flag, and the refusals. */

/** Every `--flag` a usage text lists, in order. */
function listedFlags(usage: string): string[] {
  return [...usage.matchAll(/^ {2}(?:-h, )?(--[a-z-]+)/gm)].map((m) => m[1]);
}

describe('integer and text values', () => {
  it('reads an integer in range and leaves a missing flag undefined', () => {
    expect(intFlag('--port', '8080', { min: 1, max: 65535 })).toBe(8080);
    expect(intFlag('--port', undefined, { min: 1, max: 65535 })).toBeUndefined();
  });

  it('refuses what is not an integer in range, naming the flag or in the words given', () => {
    for (const raw of ['x', '', ' ', '1.5', '0', '65536']) {
      expect(() => intFlag('--port', raw, { min: 1, max: 65535 })).toThrow('--port needs an integer from 1 to 65535');
    }
    expect(() => intFlag('--port', 'x', { min: 1, max: 2, problem: (raw) => `bad port "${raw}"` })).toThrow(
      'bad port "x"',
    );
  });

  it('refuses an empty text value', () => {
    expect(nonEmptyFlag('--data', 'd')).toBe('d');
    expect(nonEmptyFlag('--data', undefined)).toBeUndefined();
    expect(() => nonEmptyFlag('--data', '')).toThrow('--data needs a value');
  });
});

describe('the runner', () => {
  it('has defaults and reads every flag, in both spellings', () => {
    expect(parseRunnerArgs([], '/app')).toEqual({
      root: '/app',
      port: 7071,
      hostname: '127.0.0.1',
      quiet: false,
      verbose: false,
      drainTimeoutMs: 10_000,
      headersTimeoutMs: DEFAULT_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MS,
      help: false,
    });
    const args = parseRunnerArgs(
      [
        '--root',
        'r',
        '--main',
        'dist/*.js',
        '--host-json=h.json',
        '--port',
        '0',
        '--hostname',
        '::1',
        '--quiet',
        '--verbose',
        '--drain-timeout',
        '500',
        '--headers-timeout=200',
        '--request-timeout',
        '400',
        '--clock-start',
        '2026-03-29T01:30:00+01:00',
      ],
      '/',
    );
    expect(args).toEqual({
      root: 'r',
      main: 'dist/*.js',
      hostJson: 'h.json',
      port: 0,
      hostname: '::1',
      quiet: true,
      verbose: true,
      drainTimeoutMs: 500,
      headersTimeoutMs: 200,
      requestTimeoutMs: 400,
      clockStart: Date.UTC(2026, 2, 29, 0, 30),
      help: false,
    });
    expect(parseRunnerArgs(['-h'], '/').help).toBe(true);
    expect(parseRunnerArgs(['--help'], '/').help).toBe(true);
  });

  it('rejects unknown flags, missing and bad values, and stray arguments', () => {
    expect(() => parseRunnerArgs(['--prot', '1'], '/')).toThrow("Unknown option '--prot'");
    expect(() => parseRunnerArgs(['--port', 'x'], '/')).toThrow('--port needs an integer from 0 to 65535');
    expect(() => parseRunnerArgs(['--root'], '/')).toThrow("Option '--root <value>' argument missing");
    expect(() => parseRunnerArgs(['app'], '/')).toThrow("Unexpected argument 'app'");
    expect(() => parseRunnerArgs(['--request-timeout', '0'], '/')).toThrow('--request-timeout needs an integer');
    expect(() => parseRunnerArgs(['--headers-timeout', '500', '--request-timeout', '400'], '/')).toThrow(
      '--headers-timeout cannot be longer than --request-timeout',
    );
    // A time without its offset would be read in the machine's zone: refused, as a date that is not one.
    for (const bad of ['2026-03-29T01:30:00', 'tomorrow'])
      expect(() => parseRunnerArgs(['--clock-start', bad], '/')).toThrow(
        `--clock-start needs an ISO 8601 instant with its offset, got "${bad}"`,
      );
  });

  it('lists every flag it reads in its usage', () => {
    expect(listedFlags(RUNNER_USAGE)).toEqual([
      '--root',
      '--main',
      '--host-json',
      '--dataset',
      '--telemetry',
      '--clock-start',
      '--port',
      '--hostname',
      '--drain-timeout',
      '--headers-timeout',
      '--request-timeout',
      '--quiet',
      '--verbose',
      '--help',
    ]);
  });
});

describe('npm start', () => {
  it('reads its flags', () => {
    const defaults = { gateway: 7071, table: 10002, queue: 10001, blob: 10000, siex: 7081, mail: 7082, webhook: 7083 };
    expect(parseStartArgs([])).toEqual({
      ports: defaults,
      servicesOnly: false,
      inMemory: false,
      accounts: 1,
      help: false,
    });
    expect(
      parseStartArgs(['--port', '8080', '--data', 'd', '--in-memory', '--accounts', '2', '--dataset=f.json']),
    ).toEqual({
      ports: { ...defaults, gateway: 8080 },
      servicesOnly: false,
      dataDir: 'd',
      inMemory: true,
      accounts: 2,
      dataset: 'f.json',
      help: false,
    });
    expect(
      parseStartArgs(
        ['--services-only', '--settings', 's.json'].concat([
          '--table-port',
          '1',
          '--queue-port',
          '2',
          '--blob-port',
          '3',
          '--siex-port',
          '4',
          '--mail-port',
          '5',
          '--webhook-port',
          '6',
        ]),
      ),
    ).toMatchObject({
      ports: { gateway: 7071, table: 1, queue: 2, blob: 3, siex: 4, mail: 5, webhook: 6 },
      servicesOnly: true,
      settingsFile: 's.json',
    });
    expect(parseStartArgs(['-h']).help).toBe(true);
    expect(listedFlags(START_USAGE)).toEqual([
      '--port',
      '--services-only',
      '--settings',
      '--table-port',
      '--queue-port',
      '--blob-port',
      '--siex-port',
      '--mail-port',
      '--webhook-port',
      '--data',
      '--in-memory',
      '--accounts',
      '--dataset',
      '--help',
    ]);
  });

  it('refuses port 0, an empty directory, --settings without --services-only and unknown flags', () => {
    expect(() => parseStartArgs(['--port', '0'])).toThrow('--port needs a port number, got "0"');
    expect(() => parseStartArgs(['--blob-port', 'x'])).toThrow('--blob-port needs a port number, got "x"');
    expect(() => parseStartArgs(['--data='])).toThrow('--data needs a value');
    expect(() => parseStartArgs(['--accounts', '0'])).toThrow('--accounts needs an integer from 1 to 8');
    expect(() => parseStartArgs(['--settings', 's.json'])).toThrow('--settings goes with --services-only');
    expect(() => parseStartArgs(['--nope'])).toThrow("Unknown option '--nope'");
  });
});

describe('the SIEX simulator and the mail stub', () => {
  it('have their defaults', () => {
    expect(parseSimulatorArgs([])).toEqual({
      port: 7081,
      host: '127.0.0.1',
      username: 'siex-local',
      password: 'siex-local',
      verbose: false,
      help: false,
    });
    expect(parseMailStubArgs([])).toEqual({
      port: 7082,
      host: '127.0.0.1',
      accessKey: MAIL_STUB_ACCESS_KEY,
      verbose: false,
      help: false,
    });
  });

  it('read every flag', () => {
    expect(
      parseSimulatorArgs([
        '--port=0',
        '--host',
        '0.0.0.0',
        '--schema',
        's.json',
        '--username',
        'u',
        '--password',
        'p',
        '--processing-ms',
        '0',
        '--latency-ms',
        '25',
        '--verbose',
        '--help',
      ]),
    ).toEqual({
      port: 0,
      host: '0.0.0.0',
      schemaPath: 's.json',
      username: 'u',
      password: 'p',
      processingMs: 0,
      latencyMs: 25,
      verbose: true,
      help: true,
    });
    expect(parseMailStubArgs(['--port', '9', '--host=::1', '--access-key', 'a2V5', '--verbose'])).toEqual({
      port: 9,
      host: '::1',
      accessKey: 'a2V5',
      verbose: true,
      help: false,
    });
    expect(listedFlags(SIMULATOR_USAGE)).toEqual([
      '--port',
      '--host',
      '--schema',
      '--username',
      '--password',
      '--processing-ms',
      '--latency-ms',
      '--verbose',
      '--help',
    ]);
    expect(listedFlags(MAIL_STUB_USAGE)).toEqual(['--port', '--host', '--access-key', '--verbose', '--help']);
  });

  it('refuse bad values and unknown flags', () => {
    expect(() => parseSimulatorArgs(['--latency-ms', '600001'])).toThrow('--latency-ms needs an integer from 0 to');
    expect(() => parseSimulatorArgs(['--user', 'x'])).toThrow("Unknown option '--user'");
    expect(() => parseMailStubArgs(['--access-key', 'not base64!'])).toThrow('--access-key must be base64');
    expect(() => parseMailStubArgs(['--port'])).toThrow("Option '--port <value>' argument missing");
  });
});

describe('the webhook receiver', () => {
  it('has its defaults, reads every flag it lists, and refuses a short key', () => {
    expect(parseWebhookReceiverArgs([])).toEqual({
      port: 7083,
      host: '127.0.0.1',
      signingKey: LOCAL_WEBHOOK_SIGNING_KEY,
      help: false,
    });
    expect(parseWebhookReceiverArgs(['--port', '0', '--host', '0.0.0.0', '--signing-key', 'k'.repeat(32)])).toEqual({
      port: 0,
      host: '0.0.0.0',
      signingKey: 'k'.repeat(32),
      help: false,
    });
    expect(listedFlags(WEBHOOK_RECEIVER_USAGE)).toEqual(['--port', '--host', '--signing-key', '--help']);
    expect(() => parseWebhookReceiverArgs(['--signing-key', 'short'])).toThrow('at least 32 characters');
    expect(() => parseWebhookReceiverArgs(['--port', 'x'])).toThrow();
  });
});
