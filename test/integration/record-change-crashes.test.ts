import { Client } from '../../shared/clients/client-store';
import { FarmIndex } from '../../shared/farms/farm-index';
import { sigpacCode } from '../../shared/farms/sigpac';
import { amendRecord } from '../../shared/records/amend-record';
import { ChangeInput } from '../../shared/records/changeable-record';
import { phytoKind } from '../../shared/phyto/phyto-kind';
import { dayOf } from '../../shared/phyto/application-history';
import { requestDeletion } from '../../shared/records/delete-record';
import { guardRowKey } from '../../shared/records/record-keys';
import { ChangeStore } from '../../shared/phyto/phyto-store';
import { parseDateTime } from '../../shared/domain/dates';
import { fromDocProps } from '../../shared/store/doc-entity';
import { PhytoRecord } from '../../shared/phyto/wire-record';
import { Crash, CrashPlan, killable } from '../helpers/killable';
import { madrid } from '../helpers/phyto-fixtures';
import {
  asReply,
  body,
  farmOf,
  inProcessRegister,
  inProcessServices,
  P,
  partitionRows,
  phytoFarm,
  seedPhyto,
  testClient,
  uniqueRea,
} from '../helpers/phyto-stack';
import { phytoEntry } from '../../shared/phyto/kind-entry';

/**
 * Issue 13, item 6: an amendment or a deletion killed at every storage call it makes, before the call does anything
 * or right after it did (its answer lost), then retried with the same Idempotency-Key as a client would. Whatever the
 * step, the record ends as one uninterrupted change leaves it: one new version, and the history rows of its enclosures
 * counting exactly the records that exist (nothing half applied, nothing counted twice or lost).
 */
jest.setTimeout(120_000);

const NOW = madrid('15-05-2026 12:00:00');
const rea = uniqueRea();
const client = testClient('change-crash', [rea]);
const keys = { sidKey: client.sidKey, apiKey: client.apiKey };
const svc = inProcessServices();
const register = inProcessRegister(svc, () => NOW);
let me: Client;
let f: Awaited<ReturnType<typeof farmOf>>;
let farm: FarmIndex;
let n = 0;

beforeAll(async () => {
  await seedPhyto({ farms: [phytoFarm(rea, 4, NOW.year)], clients: [client] });
  me = (await svc.gate.findClient(client.sidKey))!;
  f = await farmOf(rea, NOW.year);
  farm = (await svc.farms.index(f.farmId))!;
});

/** A new record of the copper product without limits on a vine enclosure, 14-05 at a minute of its own. */
async function newRecord(): Promise<number> {
  n++;
  const res = await register(
    keys,
    f.agrifarmId,
    JSON.stringify(
      body({ idcp: [f.vine[n % 4]], dateApplication: `14-05-2026 10:${String(n % 60).padStart(2, '0')}:00` }),
    ),
  );
  if (res.status !== 201) throw new Error(res.text);
  return Number(String(res.json[0].id).split(':').pop());
}

/** The history rows must count, per enclosure and day, exactly the records stored: nothing half applied. */
async function expectHistoryMatchesRecords(label: string): Promise<void> {
  const rows = await partitionRows(f.key);
  const counted = new Map<string, Record<string, number>>();
  for (const [rowKey, row] of rows) {
    if (!rowKey.startsWith(`r~${String(f.farmId).padStart(10, '0')}~`) || rowKey.endsWith('~list')) continue;
    const record = fromDocProps<PhytoRecord>(row);
    const day = dayOf(parseDateTime(record.dateApplication)!);
    const sigpacs = new Set(record.idcp.map((i) => sigpacCode(farm.byIdcp.get(Number(i))!)));
    for (const s of sigpacs) {
      const key = guardRowKey(record.subtype!.subtype.code, s);
      const days = counted.get(key) ?? {};
      days[day] = (days[day] ?? 0) + 1;
      counted.set(key, days);
    }
  }
  const stored = new Map(
    [...rows]
      .filter(([k]) => k.startsWith(`g~${P.unlimited}~`))
      .map(([k, row]) => [k, JSON.parse(String(row.days)) as Record<string, number>]),
  );
  for (const [key, days] of stored) if (Object.keys(days).length === 0) stored.delete(key);
  expect([label, Object.fromEntries(stored)]).toEqual([label, Object.fromEntries(counted)]);
}

function input(id: number, key: string): ChangeInput {
  return { client: me, agrifarmId: f.agrifarmId, recordId: id, ifMatch: null, idempotencyKey: key };
}

const amend = async (store: ChangeStore, id: number, key: string) =>
  asReply(
    await amendRecord(
      {
        kind: phytoKind,
        farms: svc.farms,
        reference: svc.reference,
        store,
        ids: svc.kinds.of(phytoEntry).ids,
        heldByJob: async () => null,
        settings: { MAX_BACKDATE_DAYS: 7 },
        now: () => NOW,
        sleep: async () => undefined,
      },
      // a new date and enclosure: the record row's key, and the history of two enclosures, change together
      {
        ...input(id, key),
        patch: { dateApplication: '12-05-2026 09:00:00', idcp: [f.vine[0], f.vine[1]], dose: 0.62 },
      },
    ),
  );

/** The deletion's outcome, a result done here answered as the HTTP edge answers it. */
const remove = async (store: ChangeStore, id: number, key: string) => {
  const outcome = await requestDeletion(
    {
      kind: phytoKind,
      store,
      reference: svc.reference,
      heldByJob: async () => null,
      now: () => NOW,
      sleep: async () => undefined,
    },
    farm,
    input(id, key),
  );
  return 'done' in outcome ? { done: asReply(outcome.done) } : outcome;
};

async function steps(run: (store: ChangeStore, id: number, key: string) => Promise<unknown>): Promise<string[]> {
  const calls: string[] = [];
  await run(
    killable(svc.kinds.of(phytoEntry).store, { left: Infinity, mode: 'before', dead: false, calls }),
    await newRecord(),
    `steps-${n}`,
  );
  return calls;
}

describe.each([
  ['amendment', amend, 'amended', 200],
  ['deletion', remove, 'deleted', 204],
] as const)('an %s killed at any storage call, then retried with its key', (_, run, kind, status) => {
  it.each(['before', 'after'] as const)(
    'killed %s each call: one change, the history counting what exists',
    async (mode) => {
      const calls = await steps(run);
      expect(calls).toContain('commit');
      for (let at = 1; at <= calls.length; at++) {
        const id = await newRecord();
        const key = `crash-${mode}-${at}-${id}`;
        const plan: CrashPlan = { left: at, mode, dead: false };
        const first = await run(killable(svc.kinds.of(phytoEntry).store, plan), id, key).then(
          () => 'completed',
          (e: unknown) => (e instanceof Crash ? 'crashed' : Promise.reject(e as Error)),
        );
        const label = `${mode} ${calls[at - 1]} (call ${at}, first ${first})`;
        const retried = (await run(svc.kinds.of(phytoEntry).store, id, key)) as
          { status: number } | { done: { status: number } };
        expect([label, 'done' in retried ? retried.done.status : retried.status]).toEqual([label, status]);
        const versions = (await svc.kinds.of(phytoEntry).store.readHistory(f.key, id))!;
        expect([label, versions.map((v) => v.kind)]).toEqual([label, ['created', kind]]);
        await expectHistoryMatchesRecords(label);
      }
    },
  );
});
