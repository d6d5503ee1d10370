import { inParallel } from '../../shared/store/batched-query';

/** A task the test ends by hand, so that what runs at once is seen without timing anything. */
function gate() {
  let open!: () => void;
  let fail!: (e: Error) => void;
  const done = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { done, open, fail };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('inParallel', () => {
  it('runs at most `parallel` items at once, starting them in order', async () => {
    const gates = Array.from({ length: 5 }, gate);
    const started: number[] = [];
    const all = inParallel(gates, 2, async (g, i) => {
      started.push(i);
      await g.done;
    });
    await settle();
    expect(started).toEqual([0, 1]);
    gates[1].open();
    await settle();
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.open();
    await all;
    expect(started).toEqual([0, 1, 2, 3, 4]);
  });

  it('after a failure starts nothing more, waits for the items running, then passes the first failure on', async () => {
    const gates = Array.from({ length: 5 }, gate);
    const started: number[] = [];
    let ended = 0;
    let outcome: unknown = 'pending';
    const all = inParallel(gates, 2, async (g, i) => {
      started.push(i);
      await g.done;
      ended++;
    }).catch((e: unknown) => (outcome = e));
    await settle();
    const boom = new Error('boom');
    gates[0].fail(boom);
    await settle();
    // Item 1 still runs: the failure is not passed on before it ends.
    expect(outcome).toBe('pending');
    gates[1].open();
    await all;
    expect(outcome).toBe(boom);
    expect(started).toEqual([0, 1]);
    expect(ended).toBe(1);
  });
});
