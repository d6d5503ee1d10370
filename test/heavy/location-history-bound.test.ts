import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { officialCataloguesDir } from '../../local/siex-data';
import { findProjectRoot, Stack, startStack } from '../../local/stack';
import { FarmStore } from '../../shared/farms/farm-store';
import { sigpacCode } from '../../shared/farms/sigpac';
import { guardRowKey, holdingPartition } from '../../shared/records/record-keys';
import { TableStore } from '../../shared/store/tables';
import { CAMPAIGN, dataset, TEST_MAX_BACKDATE_DAYS } from '../helpers/dataset';
import { call, Keys } from '../helpers/http';
import { poltigliaUnlimited } from '../helpers/phyto-fixtures';
import {
  APPLICATORS,
  body,
  daysAgo,
  P,
  phytoFarm,
  phytoProducts,
  REGISTER_PATH,
  testClient,
  uniqueRea,
} from '../helpers/phyto-stack';
import { partition } from '../helpers/storage';

/**
 * Issue 15, finding 2: the per-location history grew by one JSON entry per application, and the 656th application of a
 * product on one location broke it for good (500 PropertyValueTooLarge). Over HTTP through a runner of its own, whose
 * rate limit is raised by setting, 10,000 applications on one location each get the right answer, and the history
 * rows stay a few hundred bytes. Applications of one product on one location serialise on its history row, so the
 * 10,000 go as four streams of four copper products without limits (2,500 each, far past the 655 that broke a row),
 * with a product authorized twice per campaign in the first stream.
 */
const TOTAL = 10_000;
const STREAMS = 4;
/** Every this many in the first stream, the copper product authorized twice per campaign instead. */
const LIMITED_EVERY = 500;
const rea = uniqueRea();
const client = testClient('history-bound', [rea]);
const copper = poltigliaUnlimited({ registered: '01-01-2000', expires: '31-12-2099', lastUse: '' });
/** The shared reference set's unlimited copper, and three more like it under codes of this file's own. */
const products = [P.unlimited, 'ES-91631', 'ES-91632', 'ES-91633'];
let stack: Stack;
let base: string;

/**
 * A stack of its own (in-memory Azurite and a runner, with the rate limit raised by setting): 10,000 records are
 * more than the shared Azurite should carry for every other test, and its in-memory tables slow down with size.
 */
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'history-bound-'));
  const file = join(dir, 'dataset.json');
  writeFileSync(
    file,
    JSON.stringify(
      dataset({
        clients: [client],
        farms: [phytoFarm(rea, 1)],
        applicators: Object.values(APPLICATORS),
        products: [...phytoProducts(), ...products.slice(1).map((code) => ({ ...copper, code }))],
      }),
    ),
  );
  const root = findProjectRoot(__dirname);
  stack = await startStack({
    projectRoot: root,
    inMemory: true,
    gatewayPort: 0,
    catalogues: officialCataloguesDir(root),
    dataset: file,
    env: {
      AUTH_MODE: 'local',
      RATE_LIMIT_PER_MINUTE: '100000',
      MAX_BACKDATE_DAYS: String(TEST_MAX_BACKDATE_DAYS),
      REFERENCE_CACHE_SECONDS: '3600',
    },
    output: () => undefined,
  });
  base = stack.gatewayUrl;
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

function registerOn(keys: Keys, agrifarmId: string, b: unknown) {
  return call('POST', `${REGISTER_PATH}?agrifarmId=${encodeURIComponent(agrifarmId)}`, {
    base,
    keys,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(b),
  });
}

it(`${TOTAL} applications on one location: every one answered right, the history bounded`, async () => {
  const tables = new TableStore({ AzureWebJobsStorage: stack.storageConnectionString });
  const farms = new FarmStore(tables, 0);
  const farm = (await farms.index((await farms.lookupInfo(rea, CAMPAIGN))!.farmId))!;
  const entry = farm.doc.idcps.find((e) => farm.cropOf(e).typecropId === '102')!;
  const location = String(entry.idcp);
  const agrifarmId = `urn:ngsi-ld:AgriFarm:${farm.meta.farmId}`;
  const statuses = new Map<string, number>();
  const limited: string[] = [];
  const stream = async (s: number) => {
    for (let i = 0; i < TOTAL / STREAMS; i++) {
      const isLimited = s === 0 && i % LIMITED_EVERY === 0;
      const code = isLimited ? P.twice : products[s];
      const res = await registerOn(
        client,
        agrifarmId,
        body({
          idcp: [location],
          dateApplication: daysAgo(
            (i % 7) + 1,
            `${String(i % 24).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`,
          ),
          subtype: { type: 'TypePhytosanitary', name: 'POLTIGLIA 20 WP', code },
        }),
      );
      const outcome = res.status === 201 ? '201' : `${res.status} ${res.json?.errors?.map((e: any) => e.code)}`;
      if (isLimited) limited.push(outcome);
      else statuses.set(outcome, (statuses.get(outcome) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: STREAMS }, (_, s) => stream(s)));
  const limitedCount = TOTAL / STREAMS / LIMITED_EVERY;
  expect([...statuses]).toEqual([['201', TOTAL - limitedCount]]);
  // at most two per campaign: the first two of the limited product pass, every later one is refused for the count
  expect(limited).toEqual(['201', '201', ...Array(limitedCount - 2).fill('422 MAX_APPLICATIONS')]);

  const rows = new Map(
    (await partition(tables, 'phyto', holdingPartition(farm.meta))).map((r) => [String(r.rowKey), r]),
  );
  for (const [s, code] of products.entries()) {
    const history = rows.get(guardRowKey(code, sigpacCode(entry)))!;
    const days = JSON.parse(String(history.days)) as Record<string, number>;
    const expected = TOTAL / STREAMS - (s === 0 ? limitedCount : 0);
    expect([code, Object.values(days).reduce((a, b) => a + b, 0)]).toEqual([code, expected]);
    expect(Object.keys(days)).toHaveLength(7);
    expect(String(history.days).length).toBeLessThan(200);
  }
  expect([...rows.keys()].filter((k) => k.startsWith('r~'))).toHaveLength(TOTAL - limitedCount + 2);
}, 1_500_000);
