/**
 * The Postman collection runs as shipped: `npm run smoke`'s newman run (local/smoke.ts) against a stack started as
 * `npm start` starts one, with the demo data, ends with no failed request and no failed assertion, twice in a row (a
 * run deletes what it registered, so it runs again on kept data, as against a sandbox).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DateTime } from 'luxon';
import { parseSmokeArgs, runSmoke } from '../../local/smoke';
import { findProjectRoot, Stack } from '../../local/stack';
import { ZONE } from '../../shared/domain/dates';
import { startDemoStack } from '../helpers/readme-flow';

const root = findProjectRoot(__dirname);
let demo: { stack: Stack; stop(): Promise<void> };

beforeAll(async () => {
  // One run of the collection stays within a client's 100 requests a minute, as against a sandbox behind API
  // Management; two back to back, with every kind's seven operations, do not, so this stack allows more.
  demo = await startDemoStack(DateTime.now().setZone(ZONE).year, { RATE_LIMIT_PER_MINUTE: '1000' });
});
afterAll(() => demo?.stop());

const collection = JSON.parse(
  fs.readFileSync(path.join(root, 'clients/postman/siex-gateway.postman_collection.json'), 'utf8'),
) as { item: unknown[] };

// The second run finds the data as the first left it.
it.each([1, 2])('run %i: every request of the collection, with every assertion passing', async () => {
  // As `npm run smoke -- --url <gateway> --quiet` runs it: the demo keys by default.
  const summary = await runSmoke(parseSmokeArgs(['--url', `${demo.stack.gatewayUrl}/`, '--quiet']));
  expect(summary).toEqual({
    requests: expect.any(Number),
    failedRequests: 0,
    assertions: expect.any(Number),
    failedAssertions: 0,
    failures: [],
  });
  // Each request of the collection ran, and each asserted: the job's polls add requests, never remove one.
  expect(summary.requests).toBeGreaterThanOrEqual(collection.item.length);
  expect(summary.assertions).toBeGreaterThanOrEqual(2 * collection.item.length);
});
