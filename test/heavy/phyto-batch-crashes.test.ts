import { Client } from '../../shared/clients/client-store';
import { DomainError } from '../../shared/domain/errors';
import { BatchItemOutcome, registerBatch } from '../../shared/records/batch-register';
import { RegistrationStore } from '../../shared/records/register-record';
import { StoredTreatment } from '../../shared/phyto/stored-record';
import { Crash, CrashPlan, killable } from '../helpers/killable';
import { madrid } from '../helpers/phyto-fixtures';
import {
  asReply,
  body,
  farmOf,
  inProcessServices,
  phytoFarm,
  recordCount,
  registerDeps,
  seedPhyto,
  testClient,
  uniqueRea,
} from '../helpers/phyto-stack';
import { phytoEntry } from '../../shared/phyto/kind-entry';

/**
 * Issue 26 item 5: a batch under an Idempotency-Key killed at every storage call it makes (before the call, or right
 * after it with its answer lost), then retried whole as a client would. Whatever the step, the retry stores each item
 * exactly once, the items stored before the crash answer as they did, and the refused item is refused again.
 */
jest.setTimeout(180_000);

const NOW = madrid('15-05-2026 12:00:00');
const svc = inProcessServices();

/** Three items: two lawful ones of the copper product without limits on two vines, and between them one over the dose range (refused, 422). */
function items(vine: string[]) {
  const copper = (idcp: string, hhmm: string) => body({ idcp: [idcp], dateApplication: `14-05-2026 ${hhmm}:00` });
  return [copper(vine[0], '08:00'), { ...copper(vine[1], '09:00'), dose: 9 }, copper(vine[2], '10:00')];
}

/** An item's outcome as the client reads it: a stored one as the HTTP edge renders it (status, body, ETag). */
type ItemAnswer =
  { index: number; stored: ReturnType<typeof asReply> } | Extract<BatchItemOutcome, { refused: unknown }>;

const summary = (outcomes: ItemAnswer[]) =>
  outcomes.map((o) => ('stored' in o ? [o.index, o.stored.status] : [o.index, o.refused.violations[0].code]));

async function runBatch(me: Client, agrifarmId: string, vine: string[], plan: CrashPlan | null): Promise<ItemAnswer[]> {
  const deps = registerDeps(svc, () => NOW);
  const store: RegistrationStore<StoredTreatment> = plan
    ? killable(svc.kinds.of(phytoEntry).store, plan)
    : svc.kinds.of(phytoEntry).store;
  const batchKeys = plan ? killable(svc.kinds.of(phytoEntry).batchKeys, plan) : svc.kinds.of(phytoEntry).batchKeys;
  const outcomes = await registerBatch(
    { ...deps, store, batchKeys, sleep: async () => undefined },
    { client: me, agrifarmId, exported: false, items: items(vine), idempotencyKey: 'erp-batch-crash' },
  );
  return outcomes.map((o) => ('stored' in o ? { index: o.index, stored: asReply(o.stored) } : o));
}

it('a batch killed at any storage call and retried stores each item once and answers each as first', async () => {
  // Calls of an uninterrupted batch: the key, then per lawful item a read and a commit (the refused one reads only).
  const calls = 1 + 2 + 1 + 2;
  for (const mode of ['before', 'after'] as const) {
    for (let at = 1; at <= calls; at++) {
      const rea = uniqueRea();
      const client = testClient(`batch-crash-${mode}-${at}`, [rea]);
      await seedPhyto({ farms: [phytoFarm(rea, 4, NOW.year)], clients: [client] });
      const me = (await svc.gate.findClient(client.sidKey))!;
      const f = await farmOf(rea, NOW.year);

      const plan: CrashPlan = { left: at, mode, dead: false };
      await expect(runBatch(me, f.agrifarmId, f.vine, plan)).rejects.toBeInstanceOf(Crash);
      const retry = await runBatch(me, f.agrifarmId, f.vine, null);
      expect([mode, at, summary(retry)]).toEqual([
        mode,
        at,
        [
          [0, 201],
          [1, 'DOSE_ABOVE_MAX'],
          [2, 201],
        ],
      ]);
      expect([mode, at, await recordCount(f.key)]).toEqual([mode, at, 2]);
      // And once more: every stored item answers byte for byte as the retry did.
      const again = await runBatch(me, f.agrifarmId, f.vine, null);
      expect(again.filter((o) => 'stored' in o)).toEqual(retry.filter((o) => 'stored' in o));
      expect(again.every((o) => 'stored' in o || o.refused instanceof DomainError)).toBe(true);
    }
  }
});
