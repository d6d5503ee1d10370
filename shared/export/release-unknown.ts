import { DateTime } from 'luxon';
import { Clock, systemClock } from '../time/clock';
import { formatDateTime } from '../domain/dates';
import { FarmReader } from '../farms/farm-store';
import { ExportKinds } from './export-kinds';
import { JobItem } from './job';
import { JobLease } from './job-lease';
import { JobRecords } from './job-records';
import { JobRun, Outcome } from './job-run';
import { isSettled } from './job-status';
import { JobStore, refOf } from './job-store';
import { RecordRef, refText, sameRef } from './record-ref';
import { WatchStore } from './job-watch';

/** What support found in SIEX for records a failed job left with an unknown outcome: whether SIEX has them. */
export type Verdict = 'in-siex' | 'not-in-siex';

export interface ReleaseDeps {
  jobs: JobStore;
  watch: WatchStore;
  farms: Pick<FarmReader, 'index'>;
  kinds: ExportKinds;
  clock?: Clock;
}

const isUnknown = (item: JobItem) => item.state === 'error' && item.code === 'OUTCOME_UNKNOWN';

/**
 * Support's release of records blocked as RECORD_OUTCOME_UNKNOWN, once it has checked whether SIEX has them (`npm run
 * admin -- release-unknown`). The job's document took effect when an export's records are in SIEX, or a deletion's
 * are not: then they are settled as SIEX accepting it would have (marked exported, or deleted here too). Otherwise
 * they become NOT_PROCESSED, free to be exported, or deleted, again. Either way the job's result says so, the gateway stops asking SIEX about
 * them, and once no outcome of the job is unknown its owner gets the e-mail saying so (sent by the worker).
 * `records` empty means every unknown record of the job. Runs under the job's lease, so never beside a worker.
 */
export async function releaseUnknown(
  deps: ReleaseDeps,
  jobId: number,
  verdict: Verdict,
  records: RecordRef[] = [],
): Promise<{ released: RecordRef[] }> {
  const clock = deps.clock ?? systemClock;
  const lease = await JobLease.take(deps.watch, jobId, clock);
  if (!lease) throw new Error(`a worker is handling export job ${jobId} right now; try again in a minute`);
  try {
    const job = await deps.jobs.load(jobId);
    if (!job || !isSettled(job.meta.status)) throw new Error(`export job ${jobId} does not exist or has not settled`);
    const run = new JobRun(deps.jobs, job, () => lease.check());
    const marks = new JobRecords(deps.kinds, run);
    const unknown = run.allItems().filter(isUnknown).map(refOf);
    const chosen = records.length === 0 ? unknown : records;
    const notUnknown = chosen.filter((ref) => !unknown.some((u) => sameRef(u, ref)));
    if (notUnknown.length > 0)
      throw new Error(
        `not records of job ${jobId} with an unknown outcome: ${notUnknown.map((r) => refText(r, run.legacyType)).join(', ')}`,
      );
    if (chosen.length === 0) throw new Error(`export job ${jobId} has no record with an unknown outcome`);

    const farm = await deps.farms.index(run.state.farmId);
    if (!farm) throw new Error(`the farm of export job ${jobId} is no longer registered`);
    const deletion = run.state.kind === 'deletion';
    const tookEffect = deletion ? verdict === 'not-in-siex' : verdict === 'in-siex';
    if (tookEffect) await marks.accepted(chosen, farm, formatDateTime(DateTime.fromMillis(clock.now())));
    await marks.outcomeKnown(chosen);
    const outcome: Outcome = tookEffect
      ? { state: 'ok' }
      : {
          state: 'error',
          code: 'NOT_PROCESSED',
          message: deletion
            ? 'support checked SIEX: it still has this record, whose deletion can be asked for again'
            : 'support checked SIEX: it does not have this record, which can be exported again',
        };
    await run.settle(chosen.map((ref) => [ref, outcome]));
    const left = run.allItems().some(isUnknown);
    await run.update({ ...run.counts(), ...(left ? {} : { reconcile: { from: 'pending', to: 'resolved' } as const }) });
    // The worker looks at the job at the next sweep: the e-mail, if due, and whatever SIEX can still be asked.
    await lease.end({ due: clock.now(), tries: lease.tries });
    return { released: chosen };
  } catch (e) {
    await lease.end({ due: clock.now(), tries: lease.tries }).catch(() => undefined);
    throw e;
  }
}
