/**
 * A store whose "process" dies at a planned storage call: before the call does anything, or right after it did with
 * its answer lost. Crash tests kill an operation at every call it makes, then retry it as a client would.
 */
export class Crash extends Error {}

export interface CrashPlan {
  /** Calls left before the one the process dies at. */
  left: number;
  mode: 'before' | 'after';
  dead: boolean;
  /** The calls made, by method name, when the test wants them. */
  calls?: string[];
}

/** `target` with the process killed at the plan's call; every later call fails too. */
export function killable<T extends object>(target: T, plan: CrashPlan): T {
  return new Proxy(target, {
    get(t, prop, receiver) {
      const value = Reflect.get(t, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        if (plan.dead) throw new Crash(`already dead at ${String(prop)}`);
        plan.calls?.push(String(prop));
        const now = --plan.left === 0;
        if (now && plan.mode === 'before') {
          plan.dead = true;
          throw new Crash(String(prop));
        }
        const result: unknown = await (value as (...a: unknown[]) => Promise<unknown>).apply(t, args);
        if (now) {
          plan.dead = true;
          throw new Crash(`${String(prop)} (done, answer lost)`);
        }
        return result;
      };
    },
  });
}
