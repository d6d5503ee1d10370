import type { InvocationContext } from '@azure/functions';
import { LogSink } from './logger';

/**
 * Events into the invocation's own log, which the Functions host sends to Application Insights as traces of that
 * invocation (its InvocationId and operation). The Node.js library formats what it is given into one message string,
 * so the event's fields travel as the JSON of that message (docs/architecture.md, "Logs").
 */
export function invocationSink(context: InvocationContext): LogSink {
  return (level, line) => context[level](line);
}
