import { guardRowKey } from '../../shared/phyto/phyto-keys';
import { PrivatePipeline, startPrivatePipeline } from '../helpers/export-private-stack';
import { call, Keys } from '../helpers/http';
import {
  body,
  daysAgo,
  farmOf,
  P,
  partitionRows,
  phytoFarm,
  REGISTER_PATH,
  seedPhyto,
  testClient,
  uniqueRea,
} from '../helpers/phyto-stack';

/**
 * Issue 15, finding 2: the per-location history grew by one JSON entry per application, and the 656th application of a
 * product on one location broke it for good (500 PropertyValueTooLarge). Over HTTP through a runner of its own, whose
 * rate limit is raised by setting, 10,000 applications on one location each get the right answer, and the history
 * rows stay a few hundred bytes.
 */
const TOTAL = 10_000;
/** Every this many, an application of the copper product authorized twice per campaign instead of the unlimited one. */
const LIMITED_EVERY = 1_000;
const rea = uniqueRea();
const client = testClient('history-bound', [rea]);
let pipe: PrivatePipeline;
let base: string;

beforeAll(async () => {
  await seedPhyto({ farms: [phytoFarm(rea, 1)], clients: [client] });
  pipe = await startPrivatePipeline('history-bound');
  // Everything is imported before the runner starts, so it may hold clients, farms and products in memory, as in
  // production: the 10,000 requests then cost registration's own storage work only.
  base = (await pipe.runner('history-bound', { REFERENCE_CACHE_SECONDS: '3600' })).url;
}, 60_000);

afterAll(async () => {
  await pipe?.stop();
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
  const f = await farmOf(rea);
  const location = f.vine[0];
  const statuses = new Map<string, number>();
  const limited: string[] = [];
  for (let i = 0; i < TOTAL; i++) {
    const isLimited = i % LIMITED_EVERY === 0;
    const res = await registerOn(
      client,
      f.agrifarmId,
      body({
        idcp: [location],
        dateApplication: daysAgo((i % 7) + 1, `${String(i % 24).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`),
        ...(isLimited ? { subtype: { type: 'TypePhytosanitary', name: 'POLTIGLIA 20 WP', code: P.twice } } : {}),
      }),
    );
    const outcome = res.status === 201 ? '201' : `${res.status} ${res.json?.errors?.map((e: any) => e.code)}`;
    if (isLimited) limited.push(outcome);
    else statuses.set(outcome, (statuses.get(outcome) ?? 0) + 1);
  }
  expect([...statuses]).toEqual([['201', TOTAL - TOTAL / LIMITED_EVERY]]);
  // at most two per campaign: the first two of the limited product pass, every later one is refused for the count
  expect(limited).toEqual(['201', '201', ...Array(TOTAL / LIMITED_EVERY - 2).fill('422 MAX_APPLICATIONS')]);

  const rows = await partitionRows(f.key);
  const unlimited = rows.get(guardRowKey(P.unlimited, f.sigpac(location)))!;
  const days = JSON.parse(String(unlimited.days)) as Record<string, number>;
  expect(Object.values(days).reduce((a, b) => a + b, 0)).toBe(TOTAL - TOTAL / LIMITED_EVERY);
  expect(Object.keys(days)).toHaveLength(7);
  expect(String(unlimited.days).length).toBeLessThan(200);
  expect([...rows.keys()].filter((k) => k.startsWith('r~'))).toHaveLength(TOTAL - TOTAL / LIMITED_EVERY + 2);
}, 1_500_000);
