import { randomUUID } from 'node:crypto';
import { DomainError, violation } from '../../shared/domain/errors';
import { idempotencyHash } from '../../shared/idempotency/idempotency';
import { OperationKeyStore } from '../../shared/idempotency/key-operations';
import { TABLES } from '../../shared/store/tables';
import { testTables } from '../helpers/storage';

/**
 * An Idempotency-Key belongs to one client and one operation (issue 36): the binding, on the test Azurite. `run`
 * stands for the operation; what it stores is its own business, so each case counts whether it ran at all.
 */
const tables = testTables();
const keys = new OperationKeyStore(tables);
const fresh = () => `key-${randomUUID()}`;

/** The operation, counting its runs; it answers what it is given, or throws it. */
function operation(outcome: unknown = 'ok') {
  const runs = { count: 0 };
  const run = async () => {
    runs.count++;
    if (outcome instanceof Error) throw outcome;
    return outcome;
  };
  return { runs, run };
}

async function reuseOf(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    if (e instanceof DomainError) return e.violations.map((v) => [v.code, v.path]);
    throw e;
  }
  return 'ran';
}

const REUSED = [['IDEMPOTENCY_KEY_REUSED', 'header.Idempotency-Key']];
const refusal = () => new DomainError('refused', [violation('DOSE_ABOVE_MAX', 'body.dose', 'too much')]);

describe('a key bound to its operation', () => {
  it('runs its first operation, and again on the same one (a retry), but never on another', async () => {
    const key = fresh();
    const first = operation('first answer');
    expect(await keys.within('c1', key, 'registerPhytosanitary', first.run)).toBe('first answer');
    expect(await keys.within('c1', key, 'registerPhytosanitary', first.run)).toBe('first answer');
    const other = operation();
    expect(await reuseOf(keys.within('c1', key, 'registerFertilization', other.run))).toEqual(REUSED);
    expect(await reuseOf(keys.within('c1', key, 'exportCue', other.run))).toEqual(REUSED);
    expect([first.runs.count, other.runs.count]).toEqual([2, 0]);
  });

  it("is per client: another client's same key is its own", async () => {
    const key = fresh();
    await keys.within('c1', key, 'registerPhytosanitary', operation().run);
    const other = operation();
    await keys.within('c2', key, 'exportCue', other.run);
    expect(other.runs.count).toBe(1);
  });

  it('is let go when its first request is refused (nothing was stored), and kept when it failed otherwise', async () => {
    const refused = fresh();
    expect(await reuseOf(keys.within('c1', refused, 'registerPhytosanitary', operation(refusal()).run))).toEqual([
      ['DOSE_ABOVE_MAX', 'body.dose'],
    ]);
    const after = operation();
    await keys.within('c1', refused, 'registerFertilization', after.run);
    expect(after.runs.count).toBe(1);

    const failed = fresh();
    await expect(
      keys.within('c1', failed, 'registerPhytosanitary', operation(new Error('storage lost')).run),
    ).rejects.toThrow('storage lost');
    expect(await reuseOf(keys.within('c1', failed, 'registerFertilization', operation().run))).toEqual(REUSED);
  });

  it("stays when a retry under another request's binding is refused: only the request that bound it lets it go", async () => {
    const key = fresh();
    await keys.within('c1', key, 'registerPhytosanitary', operation().run);
    await reuseOf(keys.within('c1', key, 'registerPhytosanitary', operation(refusal()).run));
    expect(await reuseOf(keys.within('c1', key, 'exportCue', operation().run))).toEqual(REUSED);
  });

  it('binds a key stored before bindings existed to the first operation it comes back on', async () => {
    // A key whose answer is stored beside its records has no row here: its retry binds it and runs (to replay).
    const key = fresh();
    const table = await tables.table(TABLES.idempotency);
    await expect(table.getEntity(idempotencyHash('c1', key), 'operation')).rejects.toMatchObject({ statusCode: 404 });
    const retry = operation('the stored answer');
    expect(await keys.within('c1', key, 'registerPhytosanitary', retry.run)).toBe('the stored answer');
    expect((await table.getEntity(idempotencyHash('c1', key), 'operation')).operation).toBe('registerPhytosanitary');
    expect(await reuseOf(keys.within('c1', key, 'amendPhytosanitary', operation().run))).toEqual(REUSED);
  });

  it('binds a key once when requests on two operations race for it: one runs, the other is refused', async () => {
    const key = fresh();
    const a = operation();
    const b = operation();
    const outcomes = await Promise.all([
      reuseOf(keys.within('c1', key, 'registerPhytosanitary', a.run)),
      reuseOf(keys.within('c1', key, 'registerFertilization', b.run)),
    ]);
    expect(outcomes).toContainEqual('ran');
    expect(outcomes).toContainEqual(REUSED);
    expect(a.runs.count + b.runs.count).toBe(1);
  });
});
