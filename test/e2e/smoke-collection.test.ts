/**
 * The Postman collection runs as shipped: `npm run smoke`'s newman run (local/smoke.ts) against a stack started as
 * `npm start` starts one, with the demo data, ends with no failed request and no failed assertion, twice in a row (a
 * run deletes what it registered, so it runs again on kept data, as against a sandbox).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DateTime } from 'luxon';
import { buildDemoDataset } from '../../local/demo/build-dataset';
import { mailStubService } from '../../local/mail-stub/service';
import { officialCataloguesDir } from '../../local/siex-data';
import { siexSimulatorService } from '../../local/siex-simulator/service';
import { parseSmokeArgs, runSmoke } from '../../local/smoke';
import { findProjectRoot, Stack, startStack } from '../../local/stack';
import { ZONE } from '../../shared/domain/dates';

const root = findProjectRoot(__dirname);
let dir: string;
let stack: Stack;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smoke-'));
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

const collection = JSON.parse(
  fs.readFileSync(path.join(root, 'clients/postman/siex-gateway.postman_collection.json'), 'utf8'),
) as { item: unknown[] };

// The second run finds the data as the first left it.
it.each([1, 2])('run %i: every request of the collection, with every assertion passing', async () => {
  // As `npm run smoke -- --url <gateway> --quiet` runs it: the demo keys by default.
  const summary = await runSmoke(parseSmokeArgs(['--url', `${stack.gatewayUrl}/`, '--quiet']));
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
