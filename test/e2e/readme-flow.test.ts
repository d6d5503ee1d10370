/**
 * The README's flow, run as a reader would run it: its bash block taken from README.md as written, against a stack of
 * its own started as `npm start` starts one (the demo data for the campaign of today, the SIEX simulator, the mail
 * outbox), only the gateway's address changed. It must register, export, wait for the job and read its result, so a
 * README that calls `jobresult` too early, or uses a command some shells lack, fails here. The same flow on 12 days of
 * the year, through the stack's clock: test/e2e/demo-any-day.test.ts.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DateTime } from 'luxon';
import { buildDemoDataset } from '../../local/demo/build-dataset';
import { mailStubService } from '../../local/mail-stub/service';
import { officialCataloguesDir } from '../../local/siex-data';
import { siexSimulatorService } from '../../local/siex-simulator/service';
import { findProjectRoot, Stack, startStack } from '../../local/stack';
import { ZONE } from '../../shared/domain/dates';
import { expectFlowFinished, readmeFlow, runReadmeFlow } from '../helpers/readme-flow';

const root = findProjectRoot(__dirname);

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
    expectFlowFinished(await runReadmeFlow(stack.gatewayUrl));
  });

  it("ends every answer's line, so each answer and each line the flow prints stands alone", () => {
    const flow = readmeFlow();
    // A curl whose answer is printed (not captured by $(...)) ends it with a line end.
    const printed = flow.split('\n').filter((line) => /^curl /.test(line));
    expect(printed.length).toBeGreaterThan(4);
    expect(printed.filter((line) => !line.startsWith("curl -s -w '\\n' "))).toEqual([]);
  });
});
