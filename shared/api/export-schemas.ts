import { z } from 'zod';
import { MAX_EXPORT_RECORDS } from '../domain/export-limits';
import { queryInteger } from './query-params';
import { exportBlockerSchema } from './record-fields';

/** Export and job follow-up shapes, as the spec's JobAsync and job result tables. */

// Empty only with `pending=1`, which chooses the records itself: the service says so (export-service.ts).
export const exportBodySchema = z
  .array(z.strictObject({ id: z.string().describe('record URN from registration') }))
  .max(MAX_EXPORT_RECORDS, `at most ${MAX_EXPORT_RECORDS} records per job`)
  .describe(`1 to ${MAX_EXPORT_RECORDS} records; [] with pending=1`)
  .meta({ id: 'ExportRequest' });

export const exportQuerySchema = z.object({
  agrifarmId: z.string().min(1).describe('farm URN from the farm lookup'),
  pending: queryInteger(0, 1, '0 or 1')
    .optional()
    .describe(
      `1 with an empty body: export every record not yet exported that SIEX would take, oldest first, up to ${MAX_EXPORT_RECORDS}`,
    ),
});

export const exportResponseSchema = z
  .object({
    id: z.number().int().describe('job id, for jobstatus and jobresult'),
    status: z.string().describe('initial job status: Iniciando'),
    message: z.string(),
    records: z.number().int().optional().describe('with pending=1: how many records the job takes'),
    morePending: z
      .boolean()
      .optional()
      .describe('with pending=1: true when records still wait beyond this job (export pending again once it settles)'),
    blocked: z
      .array(
        z.object({
          id: z.string().describe('the record URN, as the request named it'),
          exportBlockers: z.array(exportBlockerSchema),
        }),
      )
      .optional()
      .describe(
        'records the request named that the job does not take, since SIEX would refuse them as they stand (amend them, then export them again); absent when every record went. When none can go the answer is 422 RECORD_NOT_EXPORTABLE and no job is made',
      ),
  })
  .meta({ id: 'ExportAccepted' });
/** A job's start as answered: the export's, and a deletion job's. */
export type ExportAccepted = z.infer<typeof exportResponseSchema>;

const jobErrorSchema = z
  .object({ code: z.string(), message: z.string() })
  .meta({ id: 'JobError', description: 'why the job could not run (status 5, Fallido)' });

export const jobSchema = z
  .object({
    type: z.literal('JobAsync'),
    id: z.string(),
    inidate: z.string().describe('DD-MM-YYYY HH:mm:ss, Madrid'),
    status: z.object({
      type: z.literal('JobStatus'),
      id: z.string().describe('1 Iniciando, 2 EnProceso, 3 FinalizadoCompleto, 4 FinalizadoConErrores, 5 Fallido'),
      name: z.enum(['Iniciando', 'EnProceso', 'FinalizadoCompleto', 'FinalizadoConErrores', 'Fallido']),
    }),
    percentage: z.number().int().min(0).max(100).describe('share of records settled'),
    error: jobErrorSchema.nullable(),
  })
  .meta({ id: 'JobAsync' });

/** The kind a job result names by leaving its type out, as results did before the gateway exported other kinds. */
export const UNTYPED_RESULT_TYPE = 'AgriPhytosanitary';

// Each kind numbers its records on its own: one kind's record 12 and another's are two records.
const recordType = z
  .string()
  .optional()
  .describe(
    `the record's type, as its URN names it (urn:ngsi-ld:<type>:<id>); absent for an ${UNTYPED_RESULT_TYPE} record, as in results before the gateway exported other kinds`,
  );

// The seed names a result's record by its integer; the URN beside it is what registration answered (issue 38).
const recordUrn = z.string().describe('the record URN, as registration answered it: urn:ngsi-ld:<type>:<id>');

export const jobResultSchema = z
  .object({
    data: z.array(
      z.object({
        result: z.string().describe('"ok"'),
        id: z.number().int().describe('record id (the integer of its URN)'),
        type: recordType,
        urn: recordUrn,
      }),
    ),
    error: z.array(
      z.object({
        result: z.literal('error'),
        id: z.number().int(),
        type: recordType,
        urn: recordUrn,
        code: z
          .string()
          .describe(
            'SIEX error code, or MISSING_DATA (not sent: a required SIEX field is missing), NOT_PROCESSED (the job failed before sending it), OUTCOME_UNKNOWN (sent, but the job failed before SIEX answered: check SIEX before exporting it again)',
          ),
        message: z.string(),
      }),
    ),
  })
  .meta({ id: 'JobResult' });

export type JobView = z.infer<typeof jobSchema>;
export type JobResultView = z.infer<typeof jobResultSchema>;

export const jobQuerySchema = z.object({
  jobId: queryInteger(1, 9_999_999_999, 'job id from the export response').describe('job id from the export response'),
});
