/**
 * The README's flow, run as a reader would run it: its bash block taken from README.md as written, against a stack of
 * its own started as `npm start` starts one (the demo data for the campaign of today, the SIEX simulator, the mail
 * outbox), only the gateway's address changed. It must register, export, wait for the job and read its result, so a
 * README that calls `jobresult` too early, or uses a command some shells lack, fails here. The same flow on 12 days of
 * the year, through the stack's clock: test/heavy/demo-any-day.test.ts.
 */
import { DateTime } from 'luxon';
import { Stack } from '../../local/stack';
import { ZONE } from '../../shared/domain/dates';
import { expectFlowFinished, readmeFlow, runReadmeFlow, startDemoStack } from '../helpers/readme-flow';

let demo: { stack: Stack; stop(): Promise<void> };

beforeAll(async () => {
  demo = await startDemoStack(DateTime.now().setZone(ZONE).year);
});
afterAll(() => demo?.stop());

describe("the README's flow, as written", () => {
  it('registers a treatment and a fertilization, exports, waits for the job to finish and reads its result', async () => {
    expectFlowFinished(await runReadmeFlow(demo.stack.gatewayUrl));
  });

  it("ends every answer's line, so each answer and each line the flow prints stands alone", () => {
    const flow = readmeFlow();
    // A curl whose answer is printed (not captured by $(...)) ends it with a line end.
    const printed = flow.split('\n').filter((line) => /^curl /.test(line));
    expect(printed.length).toBeGreaterThan(4);
    expect(printed.filter((line) => !line.startsWith("curl -s -w '\\n' "))).toEqual([]);
  });
});
