import { systemClock } from '../time/clock';
import { LEASE_MS } from './job-lease';
import { ExportMessage, JobStore } from './job-store';
import { WatchStore } from './job-watch';

export interface SweepDeps {
  watch: WatchStore;
  jobs: Pick<JobStore, 'meta'>;
  enqueue: (message: ExportMessage) => Promise<void>;
  now?: () => number;
}

/**
 * The timer's sweep over the watch list (job-watch.ts): every job whose lease ended without a heartbeat (its delivery
 * died or stalled), whose start was cut short before it was queued, or whose unknown outcomes are due to be asked
 * about again, is queued again; the delivery that takes it resumes where the job's rows say it stopped. The row is
 * freed and pushed LEASE_MS on under its ETag first, so two sweepers never both queue a job, and a stalled delivery
 * that wakes up finds its lease gone. A row whose job was never created (the export died before) is dropped.
 */
export async function sweepExportJobs(deps: SweepDeps): Promise<{ queued: number[]; dropped: number[] }> {
  const now = deps.now?.() ?? systemClock.now();
  const queued: number[] = [];
  const dropped: number[] = [];
  for (const row of await deps.watch.dueBefore(now)) {
    const meta = await deps.jobs.meta(row.jobId);
    if (!meta) {
      await deps.watch.remove(row.jobId, row.etag);
      dropped.push(row.jobId);
      continue;
    }
    const etag = await deps.watch.write(row.jobId, row.etag, { owner: '', due: now + LEASE_MS, tries: row.tries });
    if (etag === null) continue;
    await deps.enqueue({ jobId: row.jobId, correlationId: meta.correlationId });
    queued.push(row.jobId);
  }
  return { queued, dropped };
}
