import { exportExample } from '../../api/examples';
import { Contract } from '../contract';
import { CORE_ROUTES } from '../routes';
import { exportBodySchema, exportQuerySchema, exportResponseSchema } from '../../api/export-schemas';
import { MAX_EXPORT_RECORDS } from '../../domain/export-limits';

export const exportCue = {
  ...CORE_ROUTES.exportCue,
  summary: 'Export records to SIEX (asynchronous job)',
  description:
    'Body: the records to export, `[{ "id": "<record URN>" }]` (1 to ' +
    `${MAX_EXPORT_RECORDS}` +
    '). Every id must be a record of ' +
    'this farm (404 lists those that are not), not exported and not in an unfinished job (409 lists them). Answers 202 ' +
    'Accepted with the job id: follow it with jobstatus, read jobresult once it settles; an e-mail with the outcome ' +
    'goes to the client address when it finishes. A record without infection, tj or efficacy (or whose farm lacks a ' +
    '14-character REA code, a DGC on an enclosure) is not sent: the job settles it as an error MISSING_DATA naming ' +
    'what is missing. `Idempotency-Key` makes retries safe as on registration. With `pending=1` and an empty array ' +
    `the gateway chooses the records: every record of the farm campaign not yet exported (or amended since), not in an ` +
    `unfinished job, not of unknown outcome and with everything SIEX requires, oldest application first, up to ` +
    `${MAX_EXPORT_RECORDS}; the answer says how many (\`records\`) and whether more wait (\`morePending\`: export pending ` +
    'again once the job settles). None waiting is 409 NOTHING_TO_EXPORT.',
  query: exportQuerySchema,
  body: exportBodySchema,
  success: { status: 202, description: 'the job was created and queued', schema: exportResponseSchema },
  errors: [
    'AGRIFARM_NOT_FOUND',
    'RECORD_NOT_FOUND',
    'RECORD_ALREADY_EXPORTED',
    'RECORD_IN_EXPORT',
    'RECORD_OUTCOME_UNKNOWN',
    'NOTHING_TO_EXPORT',
    'QUEUE_UNAVAILABLE',
    'IDEMPOTENCY_KEY_REUSED',
    'REQUEST_IN_PROGRESS',
  ],
  idempotent: true,
  example: exportExample,
} satisfies Contract;
