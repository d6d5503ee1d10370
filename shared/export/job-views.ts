import { JobResultView, JobView } from '../api/export-schemas';
import { Client } from '../clients/client-store';
import { DomainError, violation } from '../domain/errors';
import { Job, JobItem, JobMeta } from './job';
import { LEGACY_RECORD_TYPE } from './record-ref';
import { isSettled, JOB_STATUS_ID, percentage } from './job-status';
import { JobStore } from './job-store';

function notFound(): DomainError {
  return new DomainError('No such export job.', [
    violation('JOB_NOT_FOUND', 'query.jobId', 'job not found or not accessible'),
  ]);
}

/** The job's status row, if the caller owns the job; another client's job is answered as a missing one. */
export async function ownJobMeta(jobs: JobStore, client: Client, jobId: number): Promise<JobMeta> {
  const meta = await jobs.meta(jobId);
  if (!meta || meta.clientId !== client.id) throw notFound();
  return meta;
}

export function jobView(meta: JobMeta): JobView {
  return {
    type: 'JobAsync',
    id: String(meta.jobId),
    inidate: meta.inidate,
    status: { type: 'JobStatus', id: String(JOB_STATUS_ID[meta.status]), name: meta.status },
    percentage: percentage(meta.settled, meta.total),
    error: meta.error,
  };
}

/** The per-record outcome of a settled job; records a failed job never processed are errors `NOT_PROCESSED`. */
export async function jobResult(jobs: JobStore, client: Client, jobId: number): Promise<JobResultView> {
  const meta = await ownJobMeta(jobs, client, jobId);
  if (!isSettled(meta.status)) {
    throw new DomainError(
      'The job has not finished yet.',
      [
        violation(
          'JOB_NOT_FINISHED',
          'query.jobId',
          `job ${jobId} is ${meta.status} at ${percentage(meta.settled, meta.total)}%`,
        ),
      ],
      2,
    );
  }
  const job = await jobs.load(jobId);
  if (!job) throw notFound();
  return resultOf(job);
}

/**
 * Every record of the job, by id (treatment 12 before fertilization 12). A record of another kind than treatments
 * says its `type`: each kind numbers its records on its own, and results had no `type` when jobs held treatments only.
 */
export function resultOf(job: Pick<Job, 'items'>): JobResultView {
  const items = [...job.items.values()].sort((a, b) =>
    a.recordId === b.recordId
      ? Number(a.type !== LEGACY_RECORD_TYPE) - Number(b.type !== LEGACY_RECORD_TYPE)
      : a.recordId - b.recordId,
  );
  const typeOf = (i: JobItem) => (i.type === LEGACY_RECORD_TYPE ? {} : { type: i.type });
  return {
    data: items.filter((i) => i.state === 'ok').map((i) => ({ result: 'ok', id: i.recordId, ...typeOf(i) })),
    error: items
      .filter((i) => i.state !== 'ok')
      .map((i) => ({
        result: 'error' as const,
        id: i.recordId,
        ...typeOf(i),
        code: i.state === 'pending' ? 'NOT_PROCESSED' : i.code,
        message: i.state === 'pending' ? 'the job failed before this record was settled' : i.message,
      })),
  };
}
