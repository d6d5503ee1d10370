import { Reply } from '../helpers/http';
import {
  body,
  daysAgo,
  farmOverHttp,
  list,
  P,
  phytoFarm,
  register,
  seedPhyto,
  testClient,
  uniqueRea,
} from '../helpers/phyto-stack';

/**
 * Concurrency over HTTP through the local runner: 50 lawful registrations fired at once on one farm are all stored,
 * with distinct ids; racing registrations that the interval rule makes mutually exclusive store exactly one; racing
 * retries with one Idempotency-Key store one record. Every client stays under 100 requests a minute.
 */
const rea = { fifty: uniqueRea(), race: uniqueRea(), idem: uniqueRea() };
const client = {
  fifty: testClient('phyto-conc-50', [rea.fifty]),
  race: testClient('phyto-conc-race', [rea.race]),
  idem: testClient('phyto-conc-idem', [rea.idem]),
};
const farms = {} as Record<keyof typeof rea, Awaited<ReturnType<typeof farmOverHttp>>>;

const idsOf = (replies: Reply[]) => replies.map((r) => r.json[0].id as string);

beforeAll(async () => {
  await seedPhyto({
    farms: [phytoFarm(rea.fifty, 10), phytoFarm(rea.race, 2), phytoFarm(rea.idem, 2)],
    clients: Object.values(client),
  });
  for (const k of Object.keys(rea) as (keyof typeof rea)[]) farms[k] = await farmOverHttp(client[k], rea[k]);
});

/**
 * Five per location: every registration rewrites its location's history row under its ETag, and a conflict costs a
 * retry (at most 20), so the test keeps contention per row well below that bound. Fifty on a single location can
 * exhaust the retries and answer 503 CONCURRENT_UPDATE (seen in about 1 run in 5): reported, not asserted.
 */
it('50 registrations at once on one farm (ten locations, a product without limits): 50 records, distinct ids', async () => {
  const f = farms.fifty;
  const replies = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      register(
        client.fifty,
        f.agrifarmId,
        body({
          idcp: [f.vine[i % 10]],
          dateApplication: daysAgo(
            1 + (i % 5),
            `${String(6 + Math.floor(i / 5)).padStart(2, '0')}:${String(i).padStart(2, '0')}`,
          ),
        }),
      ),
    ),
  );
  expect(replies.map((r) => r.status)).toEqual(Array(50).fill(201));
  const ids = idsOf(replies);
  expect(new Set(ids).size).toBe(50);
  const listed = await list(client.fifty, f.agrifarmId);
  expect(listed.headers.get('x-total-count')).toBe('50');
  expect(listed.json.map((r: { id: string }) => r.id).sort()).toEqual([...ids].sort());
});

it('10 registrations at once that the 7-day interval makes exclusive: exactly one stored, nine MIN_INTERVAL', async () => {
  const f = farms.race;
  const replies = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      register(
        client.race,
        f.agrifarmId,
        body({
          subtype: { type: 'TypePhytosanitary', name: 'MICROTHIOL', code: P.microthiol },
          dose: 0.5,
          idcp: [f.vine[0]],
          dateApplication: daysAgo(1 + (i % 5), `1${i % 10}:00`),
        }),
      ),
    ),
  );
  expect(replies.filter((r) => r.status === 201)).toHaveLength(1);
  const refused = replies.filter((r) => r.status !== 201);
  expect(refused.map((r) => [r.status, r.json.errors.map((e: { code: string }) => e.code)])).toEqual(
    Array(9).fill([422, ['MIN_INTERVAL']]),
  );
  expect((await list(client.race, f.agrifarmId)).json.map((r: { id: string }) => r.id)).toEqual(
    idsOf(replies.filter((r) => r.status === 201)),
  );
});

it('10 identical requests at once with one Idempotency-Key: one record, the same answer to all', async () => {
  const f = farms.idem;
  const sent = body({ idcp: [f.vine[0], f.vine[1]], dateApplication: daysAgo(1, '09:00') });
  const replies = await Promise.all(
    Array.from({ length: 10 }, () =>
      register(client.idem, f.agrifarmId, sent, { 'Idempotency-Key': 'same-order-at-once' }),
    ),
  );
  expect(replies.map((r) => r.status)).toEqual(Array(10).fill(201));
  expect(new Set(replies.map((r) => r.text)).size).toBe(1);
  expect((await list(client.idem, f.agrifarmId)).headers.get('x-total-count')).toBe('1');
});
