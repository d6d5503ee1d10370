import { Client } from '../clients/client-store';
import { DomainError, violation } from '../domain/errors';
import { checkSameRequest, requestKey } from '../idempotency/idempotency';
import { IdSource } from '../store/counters';
import { systemClock } from '../time/clock';
import { ExportKeyStore } from './export-keys';
import { ExportResult } from './export-result';

/** How long a retry waits for the first request under its key before answering 409 with Retry-After. */
export const IN_FLIGHT_WAIT_MS = 5_000;
const IN_FLIGHT_POLL_MS = 200;
/**
 * A pending key this old belongs to a request that died: every request ends within its 30-second budget (the
 * endpoint's REQUEST_BUDGET_MS and the interface's response time-out).
 */
export const STALE_PENDING_MS = 60_000;

/**
 * Idempotency-Key for starting an export, which is not one transaction. The key is written down first, naming the job
 * id the export will use; the answer replaces it once the export is done, and a refused export (4xx, 503) forgets it,
 * as a refused request stores nothing. A retry under the key while the first request runs waits for its answer, or
 * gets 409 REQUEST_IN_PROGRESS with Retry-After; one that finds the first request died gets the job it created, if it
 * got that far (`resume`), and otherwise starts the export itself. So one key never starts two jobs.
 */
export async function withIdempotency(
  deps: { keys: ExportKeyStore; jobIds: IdSource; now?: () => number; sleep?: (ms: number) => Promise<void> },
  farmId: number,
  client: Client,
  key: string | null,
  request: unknown,
  run: (jobId: number) => Promise<ExportResult>,
  resume: (jobId: number) => Promise<ExportResult | null>,
): Promise<ExportResult> {
  const idem = requestKey(client.id, key, request);
  if (!idem) return run(await deps.jobIds.take());
  const { hash, requestHash } = idem;
  const now = deps.now ?? (() => systemClock.now());
  const sleep = deps.sleep ?? ((ms: number) => systemClock.sleep(ms));
  const waitUntil = now() + IN_FLIGHT_WAIT_MS;

  const runUnder = async (etag: string, jobId: number): Promise<ExportResult> => {
    let answer: ExportResult;
    try {
      answer = await run(jobId);
    } catch (e) {
      await deps.keys.drop(farmId, hash, etag).catch(() => undefined);
      throw e;
    }
    await deps.keys.complete(farmId, hash, etag, { requestHash, answer });
    return answer;
  };

  // The job id this request last wrote the key down with: job ids are never handed out twice, so a pending entry
  // naming it is this request's own write, whose answer was lost and whose retry by the SDK was refused as a conflict.
  let mine = 0;
  for (;;) {
    const entry = await deps.keys.read(farmId, hash);
    if (!entry) {
      mine = await deps.jobIds.take();
      const etag = await deps.keys.begin(farmId, hash, null, { requestHash, jobId: mine, startedAt: now() });
      if (etag !== null) return runUnder(etag, mine);
      continue; // another request under the key began first, or this one did and never heard
    }
    if (entry.state === 'pending' && entry.jobId === mine) return runUnder(entry.etag, mine);
    // Another request under the key is refused (422), pending or not; the same request gets its answer.
    checkSameRequest(entry.requestHash, requestHash);
    if (entry.state === 'done') return entry.answer;
    if (now() - entry.startedAt < STALE_PENDING_MS) {
      if (now() < waitUntil) {
        await sleep(IN_FLIGHT_POLL_MS);
        continue;
      }
      throw new DomainError(
        'A request with this Idempotency-Key is still being processed.',
        [violation('REQUEST_IN_PROGRESS', 'header.Idempotency-Key', 'retry after Retry-After seconds for its answer')],
        2,
      );
    }
    const resumed = await resume(entry.jobId);
    if (resumed) {
      await deps.keys.complete(farmId, hash, entry.etag, { requestHash, answer: resumed }).catch(() => undefined);
      return resumed;
    }
    mine = await deps.jobIds.take();
    const etag = await deps.keys.begin(farmId, hash, entry.etag, { requestHash, jobId: mine, startedAt: now() });
    if (etag !== null) return runUnder(etag, mine);
  }
}
