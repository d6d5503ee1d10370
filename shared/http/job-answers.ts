import { ExportAccepted, JobResultView, JobView, UNTYPED_RESULT_TYPE } from '../api/export-schemas';
import { JobStarted } from '../export/export-result';
import { Job, JobKind, JobMeta } from '../export/job';
import { settledRecords } from '../export/job-outcome';
import { JOB_STATUS_ID, percentage } from '../export/job-status';
import { refUrn } from '../export/record-ref';

/** The interface's answers about export jobs (docs/interface.md): a job's start, its status and its result. */

const STARTED_MESSAGE: Record<JobKind, string> = {
  export:
    'The export runs in the background: follow it with jobstatus and jobresult. An e-mail with the outcome is sent when it finishes.',
  deletion:
    'SIEX holds this record: its deletion is sent there in the background (Borrar), and the record leaves the gateway ' +
    'once SIEX accepts it. Follow it with jobstatus and jobresult; an e-mail with the outcome is sent when it finishes.',
};

/** A job just started, as exportCUE (or a DELETE of a record SIEX holds) answers it: rendered once, kept under the key. */
export function startAnswer(started: JobStarted): string {
  const answer: ExportAccepted = {
    id: started.jobId,
    status: 'Iniciando',
    message: STARTED_MESSAGE[started.kind],
    ...started.pending,
    ...(started.blocked ? { blocked: started.blocked } : {}),
  };
  return JSON.stringify(answer);
}

/** A job's status row as jobstatus answers it (JobAsync). */
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

/**
 * A settled job's records as jobresult answers them, by id: a record of UNTYPED_RESULT_TYPE names no `type`, and comes
 * first among records of the same id (results had no `type` when jobs held that kind only); every other says its type.
 */
export function resultOf(job: Pick<Job, 'items'>): JobResultView {
  const untyped = (type: string) => type === UNTYPED_RESULT_TYPE;
  const records = settledRecords(job.items.values()).sort(
    (a, b) => a.ref.id - b.ref.id || Number(!untyped(a.ref.type)) - Number(!untyped(b.ref.type)),
  );
  const typeOf = (type: string) => (untyped(type) ? {} : { type });
  const result: JobResultView = { data: [], error: [] };
  for (const { ref, outcome } of records) {
    if (outcome.state === 'ok') result.data.push({ result: 'ok', id: ref.id, ...typeOf(ref.type), urn: refUrn(ref) });
    else
      result.error.push({
        result: 'error',
        id: ref.id,
        ...typeOf(ref.type),
        urn: refUrn(ref),
        code: outcome.code,
        message: outcome.message,
      });
  }
  return result;
}
