import { performance } from 'node:perf_hooks';
import { RegisteredFunction } from '../functions-core/core-api';
import { Invoker } from './invoke';
import { RunnerLogger } from './logger';

/**
 * An NCRONTAB schedule as the Functions timer trigger takes it: `{second} {minute} {hour} {day} {month} {day of week}`
 * (or the five fields without seconds), in UTC. Each field is `*`, a number, a range `a-b`, a step `*\/n` or `a-b/n`,
 * or a comma list of those; month and day names are not supported.
 */
export class CronSchedule {
  private readonly fields: Set<number>[];

  constructor(readonly expression: string) {
    const parts = expression.trim().split(/\s+/);
    if (parts.length !== 5 && parts.length !== 6) throw new Error(`schedule "${expression}": expected 5 or 6 fields`);
    const withSeconds = parts.length === 6 ? parts : ['0', ...parts];
    const ranges: [number, number][] = [
      [0, 59],
      [0, 59],
      [0, 23],
      [1, 31],
      [1, 12],
      [0, 6],
    ];
    this.fields = withSeconds.map((field, i) => parseField(field, ranges[i]!, expression));
  }

  /** Whether the schedule fires at this instant (to the second). */
  matches(at: Date): boolean {
    const values = [
      at.getUTCSeconds(),
      at.getUTCMinutes(),
      at.getUTCHours(),
      at.getUTCDate(),
      at.getUTCMonth() + 1,
      at.getUTCDay(),
    ];
    return values.every((v, i) => this.fields[i]!.has(v));
  }

  /** The first second after `from` at which it fires (searched up to a year ahead). */
  next(from: Date): Date | undefined {
    const t = new Date(Math.floor(from.getTime() / 1000) * 1000 + 1000);
    for (let i = 0; i < 366 * 24 * 3600; i++, t.setTime(t.getTime() + 1000)) if (this.matches(t)) return new Date(t);
    return undefined;
  }
}

function parseField(field: string, [min, max]: [number, number], expression: string): Set<number> {
  const out = new Set<number>();
  for (const part of field.split(',')) {
    const m = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
    if (!m) throw new Error(`schedule "${expression}": cannot read "${part}"`);
    const from = m[1] === '*' ? min : Number(m[2]);
    const to = m[1] === '*' ? max : m[3] !== undefined ? Number(m[3]) : m[4] !== undefined ? max : from;
    const step = m[4] !== undefined ? Number(m[4]) : 1;
    if (from < min || to > max || from > to || step < 1)
      throw new Error(`schedule "${expression}": "${part}" is outside ${min}-${max}`);
    for (let v = from; v <= to; v += step) out.add(v);
  }
  return out;
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
