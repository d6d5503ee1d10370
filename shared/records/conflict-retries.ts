import { DomainError, violation } from '../domain/errors';
import { WriteConflict } from './record-store';

/**
 * Concurrent changes of the same record or enclosures retry, with jittered exponential backoff, this many times
 * before giving up with a 503: enough for dozens of simultaneous requests on one enclosure, a burst no farm produces.
 */
export const MAX_ATTEMPTS = 60;
const MAX_BACKOFF_MS = 200;

/**
 * Runs an optimistic change until it commits: `attempt` reads, checks and writes under the ETags it read, and a
 * WriteConflict (someone wrote in between) makes it start again from the reading.
 */
export async function withConflictRetries<T>(
  attempt: () => Promise<T>,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (e) {
      if (!(e instanceof WriteConflict)) throw e;
      if (n >= MAX_ATTEMPTS) {
        throw new DomainError(
          'Too many concurrent changes on the same records or crop locations; retry shortly.',
          [violation('CONCURRENT_UPDATE', 'body.idcp', 'retry with exponential backoff')],
          1,
        );
      }
      await sleep(Math.random() * Math.min(MAX_BACKOFF_MS, 2 ** n));
    }
  }
}
