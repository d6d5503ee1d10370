import type { components } from './schema';

/** RFC 9457 problem details, as every error of the gateway answers: `errors` lists every violation with its code. */
export type Problem = components['schemas']['Problem'];
export type JobAsync = components['schemas']['JobAsync'];

/** How many violations the message lists: enough to fix a request, short enough for a log line or a terminal. */
const LISTED_VIOLATIONS = 10;

/** Node's hook for `util.inspect` (and so `console.log` and an uncaught error's print-out), named without Node types. */
const inspectCustom = Symbol.for('nodejs.util.inspect.custom');
type Inspect = (value: unknown, options: object) => string;

function problemMessage(status: number, problem: Problem | undefined): string {
  if (!problem) return `HTTP ${status}`;
  const lines = [`${status} ${problem.title}: ${problem.detail}`];
  for (const v of problem.errors.slice(0, LISTED_VIOLATIONS))
    lines.push(`  - ${v.code}${v.path ? ` at ${v.path}` : ''}: ${v.message}`);
  const total = problem.errorCount ?? problem.errors.length;
  if (total > LISTED_VIOLATIONS) lines.push(`  ... ${total - LISTED_VIOLATIONS} more (${total} violations in all)`);
  return lines.join('\n');
}

/** An answer that is not a success, with its problem details; its message lists the first violations. */
export class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem | undefined,
  ) {
    super(problemMessage(status, problem));
    this.name = 'ProblemError';
  }

  /** The stable codes of the violations (`DOSE_ABOVE_MAX`, `RATE_LIMITED`, ...). */
  get codes(): string[] {
    return this.problem?.errors.map((e) => e.code) ?? [];
  }

  /** The whole problem, every violation included, for a structured log. */
  toJSON(): { name: string; status: number; message: string; problem: Problem | undefined } {
    return { name: this.name, status: this.status, message: this.message, problem: this.problem };
  }

  /** Printed with every violation in full, where Node's default would show `errors: [ [Object] ]`. */
  [inspectCustom](_depth: number, options: object, inspect: Inspect): string {
    return `${this.stack ?? this.message}\n  problem: ${inspect(this.problem, { ...options, depth: null })}`;
  }
}

/**
 * The gateway could not be reached (refused or dropped connection, DNS failure, TLS error) on any try: `cause` is the
 * last failure as the fetch implementation raised it. A write may still have arrived; retry it with the same
 * `Idempotency-Key`.
 */
export class GatewayUnreachableError extends Error {
  constructor(
    readonly method: string,
    readonly url: string,
    readonly attempts: number,
    cause: unknown,
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`${method} ${url}: the gateway could not be reached after ${attempts} tries (${reason})`, { cause });
    this.name = 'GatewayUnreachableError';
  }
}

/** `waitForJob` gave up: the job had not settled within `timeoutMs`. `job` is its last status read. */
export class JobWaitTimeoutError extends Error {
  constructor(readonly job: JobAsync) {
    super(`job ${job.id} has not settled in time (${job.status.name}, ${job.percentage}%)`);
    this.name = 'JobWaitTimeoutError';
  }
}
