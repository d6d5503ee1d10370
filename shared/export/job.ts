import type { DateTime } from 'luxon';
import { z } from 'zod';
import type { Client } from '../clients/client-store';
import { formatDateTime } from '../domain/dates';
import { MoveOf, MoveTable } from '../domain/state-machine';
import type { FarmIndex } from '../farms/farm-index';
import { webhookDeliverySchema } from '../notify/webhook-event';
import { jobStatusSchema } from './job-status';
import { storedRefSchema } from './record-ref';

/** Why a job failed, or why its last delivery did: a code from docs/interface.md ("jobstatus") and words for people. */
export const jobErrorSchema = z.object({ code: z.string(), message: z.string() });
export type JobError = z.infer<typeof jobErrorSchema>;

/**
 * What a job asks of SIEX: `export` sends its records (a record SIEX holds already is replaced, under the same
 * IdAjena), `deletion` sends them with `Borrar: true`, and each record SIEX accepts that of leaves the gateway too.
 */
const jobKinds = ['export', 'deletion'] as const;
export type JobKind = (typeof jobKinds)[number];

/**
 * Records SIEX may have received without the job learning their outcome (docs/architecture.md, "Unknown outcomes"):
 * `none` never any; `pending` some still unknown, the gateway keeps asking SIEX; `resolved` every one is known now
 * (from SIEX or from support), the e-mail saying so is due; `told` that e-mail went.
 */
export const reconcileStates = ['none', 'pending', 'resolved', 'told'] as const;
export type ReconcileState = (typeof reconcileStates)[number];

/** Every reconcile state a job may move to from each: a failed job's unknown outcomes are learnt, then told, once. */
export const RECONCILE_TRANSITIONS = {
  none: ['pending'],
  pending: ['resolved'],
  resolved: ['told'],
  told: [],
} as const satisfies MoveTable<ReconcileState>;
export type ReconcileMove = MoveOf<typeof RECONCILE_TRANSITIONS>;

/** The job's status row: who asked, for which farm, where it stands. */
export const jobMetaSchema = z.object({
  jobId: z.number().int().positive(),
  kind: z.enum(jobKinds).default('export'),
  clientId: z.string(),
  notifyEmail: z.string(),
  farmId: z.number().int(),
  /** The farm's holding: the partition of its records. */
  rea: z.string(),
  agrifarmId: z.string(),
  status: jobStatusSchema,
  /** `DD-MM-YYYY HH:mm:ss`, Madrid. */
  inidate: z.string(),
  /** Epoch ms of the creation, for telling an abandoned start from a job still starting. */
  createdAt: z.number(),
  total: z.number().int().nonnegative(),
  settled: z.number().int().nonnegative(),
  accepted: z.number().int().nonnegative(),
  /** Why the job failed (status Fallido), null otherwise. */
  error: jobErrorSchema.nullable(),
  /** The last delivery's failure while it is being retried; becomes `error` if every delivery fails. */
  lastError: jobErrorSchema.nullable(),
  emailSent: z.boolean(),
  /** The client's webhook when the job was created ('' none): where its events go (shared/export/notifications.ts). */
  notifyWebhook: z.string().default(''),
  /** The webhook events of the job and how each delivery stands. */
  webhooks: z.array(webhookDeliverySchema).default([]),
  /** Why the outcome e-mail could not be sent, when the mail service refused it for good ('' otherwise). */
  emailError: z.string(),
  /** Where learning the outcomes SIEX may hold stands (RECONCILE_TRANSITIONS). */
  reconcile: z.enum(reconcileStates).default('none'),
  /** The correlation id of the request that started the job, on every log event of its work (shared/log). */
  correlationId: z.string().default(''),
});
export type JobMeta = z.infer<typeof jobMetaSchema>;

/** A new job's status row: Iniciando, nothing settled yet. */
export function jobMeta(
  jobId: number,
  client: Pick<Client, 'id' | 'email'> & { webhookUrl?: string },
  farm: FarmIndex,
  agrifarmId: string,
  now: DateTime,
  total: number,
  kind: JobKind = 'export',
): JobMeta {
  return {
    jobId,
    kind,
    clientId: client.id,
    notifyEmail: client.email,
    notifyWebhook: client.webhookUrl ?? '',
    farmId: farm.meta.farmId,
    rea: farm.meta.rea,
    agrifarmId,
    status: 'Iniciando',
    inidate: formatDateTime(now),
    createdAt: now.toMillis(),
    total,
    settled: 0,
    accepted: 0,
    error: null,
    lastError: null,
    emailSent: false,
    emailError: '',
    webhooks: [],
    reconcile: 'none',
    correlationId: '',
  };
}

/**
 * One record of the job and its outcome: still pending, accepted by SIEX, or settled in error with a code. Rows
 * written before jobs held several kinds name no kind: they hold records of `legacyType` (record-ref.ts).
 */
export const jobItemSchema = (legacyType: string) =>
  z.object({
    /** The record's kind (its URN's type). */
    type: z.string().default(legacyType),
    recordId: z.number().int().positive(),
    recordRowKey: z.string(),
    /** The IdAjena of the record's blocks SIEX held when the job took it (none: never accepted by SIEX). */
    siexBlocks: z.array(z.number().int().positive()).default([]),
    /** Those blocks as SIEX accepted them, by IdAjena, for their `Borrar` (none: kept by no acceptance). */
    siexBodies: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
    state: z.enum(['pending', 'ok', 'error']),
    code: z.string(),
    message: z.string(),
  });
export type JobItem = Readonly<z.infer<ReturnType<typeof jobItemSchema>>>;

/**
 * One SIEX submission: written `submitting` with its idempotency key before it is sent, `submitted` once SIEX gave its
 * request id, `done` once its outcome is applied to the records (or SIEX refused it, or cannot tell of it).
 */
export const batchStates = ['submitting', 'submitted', 'done'] as const;
export type BatchState = (typeof batchStates)[number];

/**
 * Every state a batch may move to from each. `submitting` to itself: `mayHaveReached` set before a send, or cleared
 * after one SIEX certainly did not take. A batch SIEX refused is done at once; a submitted one once its verdict is
 * applied; a done batch never moves.
 */
export const BATCH_TRANSITIONS = {
  submitting: ['submitting', 'submitted', 'done'],
  submitted: ['done'],
  done: [],
} as const satisfies MoveTable<BatchState>;
export type BatchMove = MoveOf<typeof BATCH_TRANSITIONS>;

/**
 * A batch as stored. `mayHaveReached` is set before every send of a `submitting` batch and cleared only when SIEX
 * certainly did not take any of its sends (the connection refused, no token, SIEX answering it did not take it): a
 * batch it may hold is never settled as not processed.
 */
export const jobBatchSchema = (legacyType: string) =>
  z.object({
    n: z.number().int().nonnegative(),
    key: z.string(),
    requestId: z.string(),
    state: z.enum(batchStates),
    /** Its records, of any kinds: one CUE document of the farm, with each kind's blocks in its own section. */
    records: z.array(storedRefSchema(legacyType)),
    mayHaveReached: z.boolean().default(true),
  });
export type JobBatch = Readonly<z.infer<ReturnType<typeof jobBatchSchema>>>;

/** A whole job as stored: the status row (with the ETag it was read under), its records and its batches. */
export interface Job {
  meta: JobMeta & { etag: string };
  /** By `refKey`. */
  items: ReadonlyMap<string, JobItem>;
  batches: readonly JobBatch[];
}
