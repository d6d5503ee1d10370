import { AsyncLocalStorage } from 'node:async_hooks';
import { EventName, LogEvents } from './log-events';
import { maskPersonalData } from './personal-data';

export type LogLevel = 'info' | 'warn' | 'error';

/** Where event lines go: the invocation's log (functions/ pass their InvocationContext's), a test's array. */
export type LogSink = (level: LogLevel, line: string) => void;

/** What follows a piece of work through its async calls: its correlation id, and the log of the invocation doing it. */
interface LogScope {
  correlationId?: string;
  sink?: LogSink;
}

/**
 * The gateway's one logger: structured events (log-events.ts), each one JSON line with its name, the correlation id of
 * the work in hand and its fields. Built once per process (shared/app/services.ts) and passed in like the clock; the
 * edges (the request pipeline, the queue and timer functions) open a scope with the invocation's log and the
 * correlation id, and every event written inside it, however deep, carries that id and goes to that invocation.
 */
export interface Logger {
  event<N extends EventName>(name: N, fields: LogEvents[N], level?: LogLevel): void;
  /** The correlation id of the work in hand; undefined outside any scope. */
  correlationId(): string | undefined;
  /** Runs `work` inside `scope`, merged over the current one (what it leaves out stays as it was). */
  within<T>(scope: LogScope, work: () => T): T;
}

/** Strings masked (personal-data.ts), wherever they sit in the fields; numbers and booleans as they are. */
function masked(value: unknown): unknown {
  if (typeof value === 'string') return maskPersonalData(value);
  if (Array.isArray(value)) return value.map(masked);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, masked(v)]));
  return value;
}

/** The one line an event is written as; `event` first, so that a query can pick events by how the line starts. */
export function eventLine(name: EventName, correlationId: string | undefined, fields: object): string {
  return JSON.stringify({ event: name, correlationId: correlationId ?? '', ...(masked(fields) as object) });
}

/** `fallback` takes the events written outside any scope that names a sink (start-up, the admin commands). */
export function createLogger(fallback: LogSink): Logger {
  const scopes = new AsyncLocalStorage<LogScope>();
  return {
    event(name, fields, level = 'info') {
      const scope = scopes.getStore();
      (scope?.sink ?? fallback)(level, eventLine(name, scope?.correlationId, fields));
    },
    correlationId: () => scopes.getStore()?.correlationId,
    within(scope, work) {
      const current = scopes.getStore();
      return scopes.run({ ...current, ...defined(scope) }, work);
    },
  };
}

function defined(scope: LogScope): LogScope {
  return Object.fromEntries(Object.entries(scope).filter(([, v]) => v !== undefined));
}

/** Events on the process's console: where the Functions worker sends what it writes outside an invocation. */
export const consoleSink: LogSink = (level, line) => console[level](line);

/** A logger that writes nowhere (tests that do not look at the log). */
export const silentLogger: Logger = createLogger(() => undefined);
