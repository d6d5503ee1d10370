import { performance } from 'node:perf_hooks';
import { Cron } from 'croner';
import { RegisteredFunction } from '../functions-core/core-api';
import { Invoker } from './invoke';
import { RunnerLogger } from './logger';

/**
 * An NCRONTAB schedule as the Functions timer trigger takes it: `{second} {minute} {hour} {day} {month} {day of week}`
 * (or the five fields without seconds), in UTC, read by croner. As in the host's NCrontab, a day must match both the
 * day-of-month and the day-of-week fields (croner's default, like Vixie cron, takes either), and `a/n` steps from a.
 */
export class CronSchedule {
  readonly #cron: Cron;

  constructor(readonly expression: string) {
    try {
      this.#cron = new Cron(expression, {
        timezone: 'UTC',
        mode: '5-or-6-parts',
        domAndDow: true,
        sloppyRanges: true,
      });
    } catch (e) {
      throw new Error(`schedule "${expression}": ${(e as Error).message}`, { cause: e });
    }
  }

  /** Whether the schedule fires at this instant (to the second). */
  matches(at: Date): boolean {
    return this.#cron.match(at);
  }

  /** The first second after `from` at which it fires, if it ever does. */
  next(from: Date): Date | undefined {
    return this.#cron.nextRun(from) ?? undefined;
  }
}

export interface TimerTriggerOptions {
  fn: RegisteredFunction;
  bindingName: string;
  schedule: string;
  runOnStartup: boolean;
  invoker: Invoker;
  logger: RunnerLogger;
}

/**
 * One `app.timer` trigger, served as the host serves it on one instance: the function runs at each second its
 * schedule names, never twice at once (an occurrence that falls while it still runs is skipped), with the timer
 * information the host passes (`isPastDue`, `scheduleStatus`).
 */
export class TimerTrigger {
  readonly #o: TimerTriggerOptions;
  readonly #schedule: CronSchedule;
  #timer?: NodeJS.Timeout;
  #running?: Promise<void>;
  #last?: Date;
  #stopped = false;

  constructor(options: TimerTriggerOptions) {
    this.#o = options;
    this.#schedule = new CronSchedule(options.schedule);
  }

  get functionName(): string {
    return this.#o.fn.metadata.name;
  }

  get schedule(): string {
    return this.#schedule.expression;
  }

  start(): void {
    if (this.#o.runOnStartup) this.#fire(new Date());
    this.#arm();
  }

  /** Stops firing; resolves when a running invocation has ended. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  #arm(): void {
    if (this.#stopped) return;
    const next = this.#schedule.next(new Date());
    if (!next) return;
    this.#timer = setTimeout(
      () => {
        this.#fire(next);
        this.#arm();
      },
      Math.max(0, next.getTime() - Date.now()),
    );
    this.#timer.unref();
  }

  #fire(at: Date): void {
    if (this.#running || this.#stopped) return;
    const { fn, invoker, logger, bindingName } = this.#o;
    const name = fn.metadata.name;
    const next = this.#schedule.next(at);
    const timer = {
      Schedule: { AdjustForDST: true },
      ScheduleStatus: {
        Last: (this.#last ?? at).toISOString(),
        Next: (next ?? at).toISOString(),
        LastUpdated: at.toISOString(),
      },
      IsPastDue: false,
    };
    this.#last = at;
    const started = performance.now();
    this.#running = invoker
      .invoke(fn, { inputData: [{ name: bindingName, data: { json: JSON.stringify(timer) } }] })
      .then(
        () => logger.invocation(`timer ${name} ok ${Math.round(performance.now() - started)}ms`),
        (err: unknown) => {
          invoker.logFailure(name, err);
          logger.invocation(`timer ${name} failed ${Math.round(performance.now() - started)}ms`);
        },
      )
      .finally(() => (this.#running = undefined));
  }
}
