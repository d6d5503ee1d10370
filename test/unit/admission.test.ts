import { Admission } from '../../shared/http/admission';
import { DomainError } from '../../shared/domain/errors';
import { ManualClock } from '../helpers/manual-clock';

/** Work that ends when the test says so. */
function pending<T>(value: T) {
  let end!: () => void;
  const done = new Promise<T>((resolve) => (end = () => resolve(value)));
  return { work: () => done, end };
}

const settle = () => new Promise((r) => setImmediate(r));

/** What `p` settled to so far: its value, the violation code it failed with, or 'pending'. */
function outcome<T>(p: Promise<T>): () => T | string {
  let seen: T | string = 'pending';
  p.then(
    (v) => (seen = v),
    (e: unknown) => (seen = e instanceof DomainError ? e.violations[0].code : String(e)),
  );
  return () => seen;
}

describe('Admission: what an instance takes on at once', () => {
  it('runs up to its limit at once, then queues the next in order and hands each a freed place', async () => {
    const clock = new ManualClock();
    const admission = new Admission(2, 2000, clock);
    const a = pending('a');
    const b = pending('b');
    const c = pending('c');
    const d = pending('d');
    const started: string[] = [];
    const run = (name: string, p: { work: () => Promise<string> }) =>
      outcome(admission.within(() => (started.push(name), p.work())));
    const ra = run('a', a);
    const rb = run('b', b);
    const rc = run('c', c);
    const rd = run('d', d);
    await settle();
    expect(started).toEqual(['a', 'b']);
    b.end();
    await settle();
    expect(rb()).toBe('b');
    // The oldest waiting request takes the place; the one after it still waits.
    expect(started).toEqual(['a', 'b', 'c']);
    a.end();
    await settle();
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    c.end();
    d.end();
    await settle();
    expect([ra(), rc(), rd()]).toEqual(['a', 'c', 'd']);
    // Every wait was cut short by its turn: no timer left behind.
    expect(clock.pending).toBe(0);
  });

  it('refuses with OVERLOADED, without running it, a request that waited its whole wait', async () => {
    const clock = new ManualClock();
    const admission = new Admission(1, 2000, clock);
    const a = pending('a');
    let ran = false;
    outcome(admission.within(a.work));
    const late = outcome(admission.within(async () => (ran = true)));
    await clock.advance(1999);
    expect(late()).toBe('pending');
    await clock.advance(1);
    await settle();
    expect(late()).toBe('OVERLOADED');
    expect(ran).toBe(false);
    // Its place in the queue is gone: the next request after the first ends runs at once.
    a.end();
    await settle();
    expect(await admission.within(async () => 'next')).toBe('next');
  });

  it('refuses at once, with Retry-After, a request that finds the queue full', async () => {
    const clock = new ManualClock();
    const admission = new Admission(1, 2000, clock, 1);
    const a = pending('a');
    outcome(admission.within(a.work));
    const queued = outcome(admission.within(async () => 'queued'));
    const error = await admission.within(async () => 'never').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).retryAfterSeconds).toBe(2);
    expect((error as DomainError).violations[0].code).toBe('OVERLOADED');
    a.end();
    await settle();
    expect(queued()).toBe('queued');
  });

  it('frees the place of work that failed', async () => {
    const admission = new Admission(1, 2000, new ManualClock());
    await expect(admission.within(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await admission.within(async () => 'after')).toBe('after');
  });
});
