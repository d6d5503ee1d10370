import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import * as os from 'node:os';
import { buildDemoDataset } from '../../local/demo/build-dataset';
import { mailStubService } from '../../local/mail-stub/service';
import { officialCataloguesDir } from '../../local/siex-data';
import { siexSimulatorService } from '../../local/siex-simulator/service';
import { webhookReceiverService } from '../../local/webhook-receiver/service';
import { findProjectRoot, Stack, startStack } from '../../local/stack';

/**
 * The README's flow as a reader runs it (its bash block under "The flow, with the demo data", as written), for the
 * tests that play it against a stack of their own: only the gateway's address is changed, and, for a stack whose clock
 * starts on a chosen day, the shell's `date` reads that day too.
 */

/** The address the README's block names, `npm start`'s default. */
const README_GATEWAY = 'G=http://127.0.0.1:7071';

/** The first bash block after the flow's heading. */
export function readmeFlow(): string {
  const readme = fs.readFileSync(path.join(findProjectRoot(__dirname), 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## The flow, with the demo data'));
  const block = /```bash\n([\s\S]*?)\n```/.exec(section);
  if (!block) throw new Error('README.md has no bash block under "The flow, with the demo data"');
  return block[1];
}

/**
 * `date` as the README's commands call it, moved by the seconds between now and `startMs` (GNU date's `-d @N`): the
 * flow's campaign year, application times and idempotency keys are then those of the stack's day.
 */
function shiftedDate(startMs: number): string {
  const start = Math.floor(startMs / 1000);
  return [
    `SHIFT=$(( ${start} - $(command date +%s) ))`,
    'date() { command date -d "@$(( $(command date +%s) + SHIFT ))" "$@"; }',
    '',
  ].join('\n');
}

/** Runs the flow against `gatewayUrl`, its clock started at `clockStartMs` when given; resolves with what it printed. */
export async function runReadmeFlow(gatewayUrl: string, clockStartMs?: number): Promise<string> {
  const flow = readmeFlow();
  if (!flow.split('\n').includes(README_GATEWAY)) throw new Error(`the README's flow no longer sets ${README_GATEWAY}`);
  const script = (clockStartMs === undefined ? '' : shiftedDate(clockStartMs)) + flow;
  const { stdout } = await promisify(execFile)('bash', ['-c', script.replace(README_GATEWAY, `G=${gatewayUrl}`)], {
    encoding: 'utf8',
    // A bound for a job that never settles: the loop would otherwise poll until jest gives up.
    timeout: 90_000,
  });
  return stdout;
}

/**
 * What the flow printed, checked as a reader reads it: both records registered, the job polled until it finished
 * (however many polls that took: one, if it had finished by then), and its result, the last line, naming the treatment.
 * Matched against the whole output, so a failure shows every answer the flow printed.
 */
export function expectFlowFinished(stdout: string): void {
  expect(stdout).toMatch(/^registered urn:ngsi-ld:AgriPhytosanitary:\d+$/m);
  // Step 3b: the manure on the demo's nitrate-vulnerable enclosure.
  expect(stdout).toMatch(/^registered urn:ngsi-ld:AgriFertilize:\d+$/m);
  const record = Number(/^registered urn:ngsi-ld:AgriPhytosanitary:(\d+)$/m.exec(stdout)?.[1]);
  const lines = stdout.trim().split('\n');
  const polls = lines.flatMap((line, at) => {
    const m = /^job (\d+): status (\d+)$/.exec(line);
    return m ? [{ at, status: Number(m[2]) }] : [];
  });
  const last = polls.at(-1);
  expect(last?.status).toBe(3);
  // Every poll before the last found the job queued or running (1, 2), and the result is read once, after it.
  expect(polls.slice(0, -1).filter((p) => p.status !== 1 && p.status !== 2)).toEqual([]);
  expect(last?.at).toBe(lines.length - 2);
  expect(JSON.parse(lines.at(-1)!)).toEqual({
    data: [{ result: 'ok', id: record, urn: `urn:ngsi-ld:AgriPhytosanitary:${record}` }],
    error: [],
  });
}

/** A stack as `npm start` starts one (in memory), with the demo data of `campaign`; `stop()` removes its files too. */
export async function startDemoStack(
  campaign: number,
  env?: Record<string, string>,
): Promise<{ stack: Stack; stop(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-stack-'));
  const dataset = path.join(dir, 'demo-dataset.json');
  fs.writeFileSync(dataset, JSON.stringify(buildDemoDataset(campaign)));
  const root = findProjectRoot(__dirname);
  const stack = await startStack({
    projectRoot: root,
    inMemory: true,
    dataset,
    catalogues: officialCataloguesDir(root),
    // npm start's services: its webhook receiver hands the runner the local signing key, so webhooks are on.
    services: [siexSimulatorService(), mailStubService(), webhookReceiverService()],
    ...(env ? { env } : {}),
  }).catch((err: unknown) => {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  });
  return {
    stack,
    stop: async () => {
      await stack.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
