/**
 * The README's flow, run as a reader would run it: its bash block taken from README.md as written, against a stack of
 * its own started as `npm start` starts one (the demo data for the campaign of today, the SIEX simulator, the mail
 * outbox), only the gateway's address changed. It must register, export, wait for the job and read its result, so a
 * README that calls `jobresult` too early, or uses a command some shells lack, fails here.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { DateTime } from 'luxon';
import { buildDemoDataset } from '../../local/demo/build-dataset';
import { mailStubService } from '../../local/mail-stub/service';
import { officialCataloguesDir } from '../../local/siex-data';
import { siexSimulatorService } from '../../local/siex-simulator/service';
import { findProjectRoot, Stack, startStack } from '../../local/stack';
import { ZONE } from '../../shared/domain/dates';

const root = findProjectRoot(__dirname);
/** The address the README's block names, `npm start`'s default. */
const README_GATEWAY = 'G=http://127.0.0.1:7071';

/** The first bash block after the flow's heading. */
function readmeFlow(): string {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## The flow, with the demo data'));
  const block = /```bash\n([\s\S]*?)\n```/.exec(section);
  if (!block) throw new Error('README.md has no bash block under "The flow, with the demo data"');
  return block[1];
}

let dir: string;
let stack: Stack;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-flow-'));
  const dataset = path.join(dir, 'demo-dataset.json');
  fs.writeFileSync(dataset, JSON.stringify(buildDemoDataset(DateTime.now().setZone(ZONE).year)));
  stack = await startStack({
    projectRoot: root,
    inMemory: true,
    dataset,
    catalogues: officialCataloguesDir(root),
    services: [siexSimulatorService(), mailStubService()],
  });
});
afterAll(async () => {
  await stack?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the README's flow, as written", () => {
  it('registers a treatment and a fertilization, exports, waits for the job to finish and reads its result', async () => {
    const flow = readmeFlow();
    expect(flow.split('\n')).toContain(README_GATEWAY);
    const { stdout } = await promisify(execFile)(
      'bash',
      ['-c', flow.replace(README_GATEWAY, `G=${stack.gatewayUrl}`)],
      {
        encoding: 'utf8',
        // A bound for a job that never settles: the loop would otherwise poll until jest gives up.
        timeout: 90_000,
      },
    );
    // Matched against the whole output, so a failure shows every answer the flow printed.
    // curl prints no line end after an answer: the flow's own lines end the answers before them.
    expect(stdout).toMatch(/registered urn:ngsi-ld:AgriPhytosanitary:\d+$/m);
    // Step 3b: the manure on the demo's nitrate-vulnerable enclosure.
    expect(stdout).toMatch(/registered urn:ngsi-ld:AgriFertilize:\d+$/m);
    const record = /registered urn:ngsi-ld:AgriPhytosanitary:(\d+)$/m.exec(stdout);
    const lines = stdout.trim().split('\n');
    expect(lines.at(-2)).toMatch(/^job \d+: status 3$/);
    expect(JSON.parse(lines.at(-1)!)).toEqual({ data: [{ result: 'ok', id: Number(record![1]) }], error: [] });
  });
});
