import { Client } from '../clients/client-store';
import { DomainError, violation } from '../domain/errors';
import { Job, JobItem, JobMeta } from './job';
import { Outcome } from './job-run';
import { isSettled, percentage } from './job-status';
import { JobStore, refOf } from './job-store';
import { RecordRef } from './record-ref';

/** How one record of a settled job ended: accepted by SIEX, or in error with a code and words for people. */
export interface SettledRecord {
  ref: RecordRef;
  outcome: Outcome;
}

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

/** A settled job of the caller's, whole: what its result tells; JOB_NOT_FINISHED while it runs. */
export async function settledJob(jobs: JobStore, client: Client, jobId: number): Promise<Job> {
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
  return job;
}

/**
 * Every record of the job with how it ended, by id (then by kind: each kind numbers its records on its own); a record
 * a failed job never settled is NOT_PROCESSED.
 */
export function settledRecords(items: Iterable<JobItem>): SettledRecord[] {
  return [...items]
    .map((i): SettledRecord => ({
      ref: refOf(i),
      outcome:
        i.state === 'ok'
          ? { state: 'ok' }
          : i.state === 'pending'
            ? { state: 'error', code: 'NOT_PROCESSED', message: 'the job failed before this record was settled' }
            : { state: 'error', code: i.code, message: i.message },
    }))
    .sort((a, b) => a.ref.id - b.ref.id || (a.ref.type < b.ref.type ? -1 : a.ref.type > b.ref.type ? 1 : 0));
}
