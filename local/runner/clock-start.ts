/**
 * The runner's `--clock-start`: the app's wall clock starts at a chosen instant and runs on from there, so a test can
 * play the demo flow on any day of the year (test/heavy/demo-any-day.test.ts) without waiting for it. The gateway reads
 * the time as Date.now, `new Date()` and luxon's DateTime.now (which calls Date.now) in many places; moving all of
 * them by one offset, as libfaketime does for a whole process, keeps every reading consistent with every other, and
 * leaves timers alone (they count durations, not dates). Only the local runner has it, and only with AUTH_MODE=local:
 * a deployed app never runs this file.
 */

/** `--clock-start`'s value: an ISO 8601 instant with its offset (`2026-03-29T01:30:00+01:00`), as epoch ms. */
export function parseClockStart(text: string): number {
  const ms = /(?:Z|[+-]\d{2}:\d{2})$/.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(ms)) throw new Error(`--clock-start needs an ISO 8601 instant with its offset, got "${text}"`);
  return ms;
}

/** Moves this process's wall clock so that it reads `startMs` now; refused outside AUTH_MODE=local. */
export function startClockAt(startMs: number, env: NodeJS.ProcessEnv): void {
  if (env.AUTH_MODE !== 'local') throw new Error('--clock-start is for local test stacks only (AUTH_MODE=local)');
  const RealDate = Date;
  const offset = startMs - RealDate.now();
  const now = () => RealDate.now() + offset;
  globalThis.Date = new Proxy(RealDate, {
    // `new Date()` is now; `new Date(x)` is x, as ever.
    construct: (target, args: unknown[], newTarget: (...a: unknown[]) => unknown) =>
      Reflect.construct(target, args.length === 0 ? [now()] : args, newTarget) as object,
    // `Date()` called as a function is the text of now.
    apply: () => new RealDate(now()).toString(),
    get: (target, property, receiver) =>
      property === 'now' ? now : (Reflect.get(target, property, receiver) as unknown),
  });
}
