import { IuwsError, IuwsErrorCode } from '../siex/iuws-errors';
import { isStorageUnavailable } from '../store/azure-sdk';
import { Logger } from '../log/logger';
import { JobError } from './job';

/**
 * What a client reads about a failure: a stable code and plain words. The error itself (SIEX's address, a setting's
 * value such as an unresolved Key Vault reference, a stack) goes to the log only, never into jobstatus, jobresult or
 * the e-mail.
 */
const PLAIN_WORDS: Record<IuwsErrorCode | 'STORAGE_UNAVAILABLE' | 'WORKER_ERROR', string> = {
  SIEX_NOT_CONFIGURED: "the gateway's connection to SIEX is not set up; support has been alerted",
  SIEX_AUTH: "SIEX refused the gateway's credentials; support has been alerted",
  SIEX_REJECTED: 'SIEX refused the request',
  SIEX_UNAVAILABLE: 'SIEX was unavailable (it answered with an error, or asked the gateway to slow down)',
  SIEX_TIMEOUT: 'SIEX did not answer in time',
  SIEX_UNREACHABLE: 'SIEX could not be reached',
  SIEX_PROTOCOL: 'SIEX answered in a form the gateway does not understand',
  SIEX_ABORTED: 'the call to SIEX was interrupted',
  STORAGE_UNAVAILABLE: "the gateway's storage was unavailable",
  WORKER_ERROR: 'the export worker failed',
};

/** The code a failure carries, when it is one the client may see; WORKER_ERROR otherwise. */
function failureCode(e: unknown): keyof typeof PLAIN_WORDS {
  if (isStorageUnavailable(e)) return 'STORAGE_UNAVAILABLE';
  return e instanceof IuwsError ? e.code : 'WORKER_ERROR';
}

/** A failure as the client sees it. */
export function publicFailure(e: unknown): JobError {
  const code = failureCode(e);
  return { code, message: PLAIN_WORDS[code] };
}

/**
 * A failure as the log sees it: everything, for the operators. An IUWS failure names its code, which the alert rules
 * look for (infra/monitoring/siex-not-configured.kql).
 */
export function logText(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const cause = e.cause instanceof Error ? ` (cause: ${e.cause.message})` : '';
  const code = e instanceof IuwsError ? ` ${e.code}` : '';
  return `${e.name}${code}: ${e.message}${cause}`;
}

/** What the operators are told of a job and its owner is not (shared/log/log-events.ts, `job.problem`). */
export function jobProblem(log: Logger | undefined, jobId: number, detail: string): void {
  log?.event('job.problem', { jobId, detail }, 'warn');
}
