import { DateTime } from 'luxon';
import { Client } from '../clients/client-store';
import { formatDateTime } from '../domain/dates';
import { parseUrn } from '../domain/urn';
import { FarmIndex } from '../farms/farm-index';
import { DomainError, Violation, violation } from '../domain/errors';
import { PhytoStore, WriteConflict } from '../phyto/phyto-store';
import { accessibleFarm } from '../farms/farm-service';
import { FarmReader } from '../farms/farm-store';
import { IdSource } from '../store/counters';
import { withIdempotency } from './export-idempotency';
import { isSettled } from './job-status';
import { JobStore } from './job-store';

/** What starting a job for checked records needs. */
export interface StartExportDeps {
  phyto: Pick<PhytoStore, 'readPointers' | 'claim'>;
  jobs: Pick<JobStore, 'meta' | 'create' | 'transition'>;
  jobIds: IdSource;
  enqueue: (message: { jobId: number }) => Promise<void>;
  now?: () => DateTime;
}

/** What the export operation needs: the farm, and the Idempotency-Key entries beside the records. */
export interface ExportDeps extends StartExportDeps {
  farms: Pick<FarmReader, 'index'>;
  phyto: StartExportDeps['phyto'] & Pick<PhytoStore, 'readIdempotency' | 'writeIdempotency'>;
}

export interface ExportInput {
  client: Client;
  agrifarmId: string;
  body: { id: string }[];
  idempotencyKey: string | null;
}

/** The export operation: the caller's farm, a safe retry under its Idempotency-Key, and the job started (202). */
export async function exportRecords(deps: ExportDeps, input: ExportInput): Promise<{ status: number; body: string }> {
  const farm = await accessibleFarm(deps.farms, input.client, input.agrifarmId);
  return withIdempotency(
    deps.phyto,
    farm.meta,
    input.client,
    input.idempotencyKey,
    { query: { agrifarmId: input.agrifarmId }, body: input.body },
    async () => {
      const job = await startExport(deps, input.client, farm, input.agrifarmId, input.body);
      return { status: 202, body: JSON.stringify(job) };
    },
  );
}

/**
 * A job still `Iniciando` this long after it was created will never run: its creation was cut short (the process
 * died between claiming the records and queueing the job). Its records are free again.
 */
export const ABANDONED_START_MS = 10 * 60_000;

/** Job status rows read at once when checking which earlier jobs still hold the records. */
const STATUS_READS_IN_PARALLEL = 16;

export const EXPORT_MESSAGE =
  'The export runs in the background: follow it with jobstatus and jobresult. An e-mail with the outcome is sent when it finishes.';

/**
 * Starts an export job for a farm the caller may see: checks every id (each must be a record of this farm, not
 * exported and not in an unfinished job), creates the job, claims the records for it, and queues it. Nothing is
 * queued unless every check passed.
 */
export async function startExport(
  deps: StartExportDeps,
  client: Client,
  farm: FarmIndex,
  agrifarmId: string,
  body: { id: string }[],
) {
  const malformed: Violation[] = [];
  const ids: number[] = [];
  const seen = new Set<number>();
  body.forEach(({ id }, i) => {
    const n = parseUrn('AgriPhytosanitary', id);
    if (n === null)
      malformed.push(violation('INVALID_VALUE', `body[${i}].id`, 'expected urn:ngsi-ld:AgriPhytosanitary:<n>'));
    else if (seen.has(n)) malformed.push(violation('INVALID_VALUE', `body[${i}].id`, `${id} appears twice`));
    else {
      seen.add(n);
      ids.push(n);
    }
  });
  if (malformed.length > 0) throw new DomainError('The record list is not valid.', malformed);

  const pointers = await deps.phyto.readPointers(farm.meta, ids);
  const position = new Map(ids.map((id) => [id, body.findIndex((b) => parseUrn('AgriPhytosanitary', b.id) === id)]));
  const path = (id: number) => `body[${position.get(id)}].id`;
  const missing = ids.filter((id) => !pointers.has(id));
  if (missing.length > 0) {
    throw new DomainError(
      'Some records are not records of this farm.',
      missing.map((id) => violation('RECORD_NOT_FOUND', path(id), `record ${id} not found`)),
    );
  }
  const now = (deps.now ?? (() => DateTime.now()))();
  const running = await runningJobs(
    deps.jobs,
    [...new Set([...pointers.values()].map((p) => p.jobId).filter((j) => j > 0))],
    now.toMillis(),
  );
  const conflicts: Violation[] = [];
  for (const p of pointers.values()) {
    if (p.exported)
      conflicts.push(violation('RECORD_ALREADY_EXPORTED', path(p.id), `record ${p.id} was already exported`));
    else if (p.outcomeUnknownJob > 0) {
      conflicts.push(
        violation(
          'RECORD_OUTCOME_UNKNOWN',
          path(p.id),
          `record ${p.id} was sent to SIEX by job ${p.outcomeUnknownJob}, whose outcome never came back`,
        ),
      );
    } else if (running.has(p.jobId))
      conflicts.push(
        violation('RECORD_IN_EXPORT', path(p.id), `record ${p.id} is in export job ${p.jobId}, still running`),
      );
  }
  if (conflicts.length > 0) throw new DomainError('Some records cannot be exported now.', conflicts);

  const jobId = await deps.jobIds.take();
  await deps.jobs.create(
    {
      jobId,
      clientId: client.id,
      notifyEmail: client.email,
      farmId: farm.meta.farmId,
      rea: farm.meta.rea,
      agrifarmId,
      status: 'Iniciando',
      inidate: formatDateTime(now),
      createdAt: now.toMillis(),
      total: ids.length,
      settled: 0,
      accepted: 0,
      error: null,
      lastError: null,
      emailSent: false,
      emailError: '',
    },
    ids.map((id) => ({ recordId: id, recordRowKey: pointers.get(id)!.recordRowKey })),
  );
  // A failed job releases its records: whatever was claimed before the failure is free again. The caller gets the
  // error in the response, so no e-mail is due for a job it never saw started.
  const fail = (code: string, message: string) =>
    deps.jobs
      .transition(jobId, { from: 'Iniciando', to: 'Fallido' }, { error: { code, message }, emailSent: true })
      .catch(() => undefined);
  try {
    await deps.phyto.claim(farm.meta, [...pointers.values()], jobId);
  } catch (e) {
    await fail(e instanceof WriteConflict ? 'CONFLICT' : 'START_FAILED', (e as Error).message);
    if (!(e instanceof WriteConflict)) throw e;
    throw new DomainError('Some records were taken by another export meanwhile; retry.', [
      violation('RECORD_IN_EXPORT', 'body', 'records changed while the job was being created'),
    ]);
  }
  try {
    await deps.enqueue({ jobId });
  } catch (e) {
    await fail('QUEUE_UNAVAILABLE', (e as Error).message);
    throw new DomainError(
      'The export could not be queued; nothing was started.',
      [violation('QUEUE_UNAVAILABLE', '', 'retry later')],
      5,
    );
  }
  return { id: jobId, status: 'Iniciando' as const, message: EXPORT_MESSAGE };
}

/**
 * The jobs among these that still hold their records: not settled, and not a start abandoned long ago (a process
 * that died between claiming and queueing leaves a job `Iniciando` forever; its records must not stay locked).
 */
export async function runningJobs(
  jobs: StartExportDeps['jobs'],
  jobIds: number[],
  nowMs: number,
): Promise<Set<number>> {
  const running = new Set<number>();
  for (let i = 0; i < jobIds.length; i += STATUS_READS_IN_PARALLEL) {
    const metas = await Promise.all(jobIds.slice(i, i + STATUS_READS_IN_PARALLEL).map((j) => jobs.meta(j)));
    for (const m of metas) {
      if (!m || isSettled(m.status)) continue;
      if (m.status === 'Iniciando' && nowMs - m.createdAt > ABANDONED_START_MS) {
        // Settled under its ETag: if a worker took the job meanwhile (to EnProceso), this fails and the job counts as running.
        const error = { code: 'START_ABANDONED', message: 'the job was never queued' };
        const settled = await jobs
          .transition(m.jobId, { from: 'Iniciando', to: 'Fallido' }, { error, emailSent: true }, m.etag)
          .catch(() => false);
        if (settled) continue;
      }
      running.add(m.jobId);
    }
  }
  return running;
}
