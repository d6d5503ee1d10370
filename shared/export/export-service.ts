import type { DateTime } from 'luxon';
import { Client } from '../clients/client-store';
import { FarmIndex } from '../farms/farm-index';
import { DomainError, Violation, violation } from '../domain/errors';
import { RequestKey } from '../idempotency/idempotency';
import { RecordResult, StoredAnswer } from '../records/record-result';
import { storedResponseOf } from '../records/record-rows';
import { WriteConflict } from '../records/record-store';
import { claimOf, isExported, siexBlocksOf, siexBodiesOf } from '../records/export-state';
import { migrateBlockIds } from './block-ids-migration';
import { recordIdOf } from '../records/record-keys';
import { accessibleFarm } from '../farms/farm-service';
import { FarmReader } from '../farms/farm-store';
import { isRestError } from '../store/azure-sdk';
import { IdSource } from '../store/counters';
import { ExportKinds, TakenRecord } from './export-kinds';
import { byType, RecordRef, refKey, refText, refUrn } from './record-ref';
import { blockersOf } from './export-blockers';
import { withIdempotency } from './export-idempotency';
import { BlockedRecord, ExportResult, JobStarted, StartAnswer } from './export-result';
import { ExportKeyStore } from './export-keys';
import { jobMeta, JobKind } from './job';
import { jobsHolding } from './job-claims';
import { LEASE_MS } from './job-lease';
import { ExportMessage, JobStore } from './job-store';
import { Logger } from '../log/logger';
import { WatchStore } from './job-watch';
import { pendingOfEveryKind } from './pending-export';
import { dateTimeNow } from '../time/date-time';

/** What starting a job for checked records needs. */
export interface StartExportDeps {
  /** The record kinds an export takes, their stores and key indexes. */
  kinds: ExportKinds;
  jobs: Pick<JobStore, 'meta' | 'create' | 'transition' | 'legacyType'>;
  watch: Pick<WatchStore, 'add' | 'remove'>;
  enqueue: (message: ExportMessage) => Promise<void>;
  /** The time claims and jobs are dated by; the clock's (shared/time) unless a test sets it. */
  now?: () => DateTime;
  /** Where the job's creation is logged; its correlation id is the request's, kept in the job row and the message. */
  log?: Logger;
}

/** What the export operation needs: the farm, job ids, and the Idempotency-Keys of exports. */
export interface ExportDeps extends StartExportDeps {
  farms: Pick<FarmReader, 'index'>;
  jobIds: IdSource;
  keys: ExportKeyStore;
  startAnswer: StartAnswer;
  /** How a retry waits for the first request under its key to answer; a real wait unless a test sets it. */
  sleep?: (ms: number) => Promise<void>;
}

export interface ExportInput {
  client: Client;
  agrifarmId: string;
  body: { id: string }[];
  /** `pending=1`: the body is empty and the export takes every record waiting for SIEX (pending-export.ts). */
  pending: boolean;
  idempotencyKey: string | null;
}

/** The export operation: the caller's farm, a safe retry under its Idempotency-Key, and the job started. */
export async function exportRecords(deps: ExportDeps, input: ExportInput): Promise<ExportResult> {
  const farm = await accessibleFarm(deps.farms, input.client, input.agrifarmId);
  const clock = deps.now ?? (() => dateTimeNow());
  const now = () => clock().toMillis();
  checkBodyFor(input);
  const pending = () => pendingOfEveryKind(deps.kinds, (p, at) => jobsHolding(deps.jobs, farm, p, at), farm, clock());
  return withIdempotency(
    { keys: deps.keys, jobIds: deps.jobIds, now, ...(deps.sleep ? { sleep: deps.sleep } : {}) },
    farm.meta.farmId,
    input.client,
    input.idempotencyKey,
    // Without pending=1 the fingerprint is the one keys stored before it existed were written with.
    input.pending
      ? { query: { agrifarmId: input.agrifarmId, pending: 1 }, body: input.body }
      : { query: { agrifarmId: input.agrifarmId }, body: input.body },
    async (jobId) => {
      if (!input.pending) {
        const started = await startExport(deps, input.client, farm, input.agrifarmId, input.body, jobId);
        return exportStarted(deps, { jobId, ...(started.blocked.length > 0 ? { blocked: started.blocked } : {}) });
      }
      const chosen = await pending();
      if (chosen.records.length === 0) {
        throw new DomainError('No record of this farm waits for SIEX; nothing was started.', [
          violation('NOTHING_TO_EXPORT', 'query.pending', 'every record is exported, in a running job, or incomplete'),
        ]);
      }
      const urns = chosen.records.map((r) => ({ id: refUrn(r) }));
      await startExport(deps, input.client, farm, input.agrifarmId, urns, jobId);
      return exportStarted(deps, { jobId, pending: { records: chosen.records.length, morePending: chosen.more } });
    },
    async (jobId) => {
      // The first request under the key died: if it created its job, that job is its answer (the sweeper starts it
      // should it never have been queued); a job refused or declared abandoned means nothing was started.
      const meta = await deps.jobs.meta(jobId);
      const started = meta && meta.clientId === input.client.id && !NOT_STARTED.has(meta.error?.code ?? '');
      if (!started) return null;
      // Its job holds its records now, so whatever is still pending waits beyond it.
      return input.pending
        ? exportStarted(deps, {
            jobId,
            pending: { records: meta.total, morePending: (await pending()).records.length > 0 },
          })
        : exportStarted(deps, { jobId });
    },
  );
}

/** An export names its records, or (pending=1) names none and lets the gateway choose. */
function checkBodyFor(input: ExportInput): void {
  if (!input.pending && input.body.length === 0)
    throw new DomainError('The record list is not valid.', [
      violation('INVALID_VALUE', 'body', 'at least one record (or [] with pending=1)'),
    ]);
  if (input.pending && input.body.length > 0)
    throw new DomainError('The record list is not valid.', [
      violation('INVALID_VALUE', 'body', 'pending=1 chooses the records itself: send []'),
    ]);
}

const NOT_STARTED = new Set(['QUEUE_UNAVAILABLE', 'START_ABANDONED']);

/** An export job started, its answer rendered by the edge. */
function exportStarted(deps: Pick<ExportDeps, 'startAnswer'>, job: Omit<JobStarted, 'kind'>): ExportResult {
  return { outcome: 'started', answerJson: deps.startAnswer({ ...job, kind: 'export' }) };
}

/**
 * Starts export job `jobId` for a farm the caller may see: checks every record, of whichever kind its URN names (each
 * must be a record of this farm, not exported, not in an unfinished job, not of unknown outcome), claims the records
 * for the job, and only then creates the job and queues it. A request that loses a race for the records creates
 * nothing. A record the gateway already knows SIEX cannot take (a required CUE field it lacks) is neither claimed nor
 * sent: the job takes the others, and the answer names the ones left out with their blockers; when none is left, no job
 * is made (issue 38: better told at once than by a MISSING_DATA result minutes later, after a job and an e-mail).
 */
export async function startExport(
  deps: StartExportDeps,
  client: Client,
  farm: FarmIndex,
  agrifarmId: string,
  body: { id: string }[],
  jobId: number,
): Promise<{ jobId: number; blocked: BlockedRecord[] }> {
  const refs = parseRefs(deps.kinds, body);
  const position = new Map<string, number>();
  refs.forEach((ref, i) => position.set(refKey(ref), i));
  const path = (ref: RecordRef) => `body[${position.get(refKey(ref))}].id`;
  const ofType = byType(refs);

  const missing: RecordRef[] = [];
  for (const [type, ofKind] of ofType) {
    const existing = new Set((await deps.kinds.of(type).keys.keys(farm.meta)).map(recordIdOf));
    missing.push(...ofKind.filter((r) => !existing.has(r.id)));
  }
  if (missing.length > 0) {
    throw new DomainError(
      'Some records are not records of this farm.',
      missing.map((ref) =>
        violation('RECORD_NOT_FOUND', path(ref), `record ${refText(ref, deps.jobs.legacyType)} not found`),
      ),
    );
  }
  const found: TakenRecord[] = [];
  for (const [type, ofKind] of ofType) {
    const pointers = await deps.kinds.of(type).store.readPointers(
      farm.meta,
      ofKind.map((r) => r.id),
    );
    found.push(...[...pointers.values()].map((pointer) => ({ type, pointer })));
  }
  const now = (deps.now ?? (() => dateTimeNow()))();
  // An exported record is refused anyway: its last job (a settled export) need not be read.
  const holding = await jobsHolding(
    deps.jobs,
    farm,
    found.map((f) => f.pointer).filter((p) => !isExported(p.exportState)),
    now,
  );
  const conflicts: Violation[] = [];
  for (const { type, pointer: p } of found) {
    const ref = { type, id: p.id };
    const name = `record ${refText(ref, deps.jobs.legacyType)}`;
    const state = p.exportState;
    const claim = claimOf(state);
    if (isExported(state))
      conflicts.push(violation('RECORD_ALREADY_EXPORTED', path(ref), `${name} was already exported`));
    else if (state.kind === 'outcome-unknown') {
      conflicts.push(
        violation(
          'RECORD_OUTCOME_UNKNOWN',
          path(ref),
          `${name} may have reached SIEX in job ${state.job}, whose outcome is not known yet`,
        ),
      );
    } else if (claim && holding.has(claim.jobId))
      conflicts.push(
        violation('RECORD_IN_EXPORT', path(ref), `${name} is in export job ${claim.jobId}, still running`),
      );
  }
  if (conflicts.length > 0) throw new DomainError('Some records cannot be exported now.', conflicts);

  const { ready, blocked } = await splitBlocked(deps.kinds, farm, found);
  if (ready.length === 0)
    throw new DomainError(
      'No record can be exported: SIEX would refuse each of them; nothing was started.',
      blocked.map((b) =>
        violation(
          'RECORD_NOT_EXPORTABLE',
          path(b.ref),
          `${b.id} lacks what SIEX requires: ${b.exportBlockers.map((x) => x.message).join('; ')}`,
        ),
      ),
    );
  let taken: TakenRecord[];
  try {
    taken = await migrateBlockIds(deps.kinds, farm, ready);
  } catch (e) {
    if (e instanceof WriteConflict) throw lostRace();
    throw e;
  }
  await launchJob(deps, { kind: 'export', jobId, client, farm, agrifarmId, records: taken, now });
  return { jobId, blocked: blocked.map(({ id, exportBlockers }) => ({ id, exportBlockers })) };
}

/** These records split into those SIEX would take now and those it would refuse, each with why (`blockersOf`). */
async function splitBlocked(
  kinds: ExportKinds,
  farm: FarmIndex,
  found: TakenRecord[],
): Promise<{ ready: TakenRecord[]; blocked: (BlockedRecord & { ref: RecordRef })[] }> {
  const blockers = new Map<string, string[]>();
  for (const type of new Set(found.map((f) => f.type))) {
    const pointers = found.filter((f) => f.type === type).map((f) => f.pointer);
    for (const [id, missing] of await blockersOf(kinds.of(type), farm, pointers))
      blockers.set(refKey({ type, id }), missing);
  }
  const ready: TakenRecord[] = [];
  const blocked: (BlockedRecord & { ref: RecordRef })[] = [];
  for (const f of found) {
    const ref = { type: f.type, id: f.pointer.id };
    const missing = blockers.get(refKey(ref)) ?? [];
    if (missing.length === 0) ready.push(f);
    else
      blocked.push({
        ref,
        id: refUrn(ref),
        exportBlockers: missing.map((message) => ({ code: 'MISSING_DATA', message })),
      });
  }
  return { ready, blocked };
}

/** A job about to start: what it asks of SIEX, for whom, and the records it takes (their pointers as checked). */
interface Launch {
  kind: JobKind;
  jobId: number;
  client: Client;
  farm: FarmIndex;
  agrifarmId: string;
  records: TakenRecord[];
  now: DateTime;
  /** The answer to keep under the request's Idempotency-Key with the claim, so that a retry gets it. */
  idempotency?: StoredAnswer & { hash: string };
}

const lostRace = () =>
  new DomainError('Some records were taken by another request meanwhile; nothing was started.', [
    violation('RECORD_IN_EXPORT', 'body', 'records changed while the job was being created'),
  ]);

/**
 * Claims the records for the job, under the ETags they were checked with, and only then creates the job and queues it:
 * a request that loses a race for its records creates nothing. The job is on the watch list before it exists, so
 * should this process die once the records are claimed, the sweeper still starts it. Each kind's records are claimed
 * in its own table: when a later kind's claim loses the race, the earlier kinds' claims name a job that is never
 * created, and free their records once CLAIM_GRACE_MS has passed, as an export that died between its claim and its job.
 */
async function launchJob(deps: StartExportDeps, l: Launch): Promise<void> {
  const claim = { jobId: l.jobId, at: l.now.toMillis(), by: l.client.id };
  try {
    for (const [i, type] of [...new Set(l.records.map((r) => r.type))].entries()) {
      const pointers = l.records.filter((r) => r.type === type).map((r) => r.pointer);
      // The answer under the request's key goes with the first claim (a deletion's: it holds one record).
      const idempotency = i === 0 && l.idempotency ? storedResponseOf(l.idempotency) : undefined;
      await deps.kinds.of(type).marks.claim(l.farm.meta, pointers, claim, idempotency);
    }
  } catch (e) {
    if (e instanceof WriteConflict) throw lostRace();
    throw e;
  }
  await deps.watch.add(l.jobId, l.now.toMillis() + LEASE_MS);
  const correlationId = deps.log?.correlationId() ?? '';
  const created = { jobId: l.jobId, kind: l.kind, total: l.records.length, settled: 0, accepted: 0 };
  try {
    await deps.jobs.create(
      { ...jobMeta(l.jobId, l.client, l.farm, l.agrifarmId, l.now, l.records.length, l.kind), correlationId },
      l.records.map(({ type, pointer: p }) => ({
        type,
        recordId: p.id,
        recordRowKey: p.recordRowKey,
        siexBlocks: siexBlocksOf(p.exportState),
        siexBodies: siexBodiesOf(p.exportState),
      })),
    );
  } catch (e) {
    // Its id was settled as abandoned meanwhile (this request took longer than CLAIM_GRACE_MS), and the records
    // given to another request: this one must not create its job.
    if (!isRestError(e, 409)) throw e;
    await deps.watch.remove(l.jobId);
    await forgetAnswer(deps, l);
    throw lostRace();
  }
  deps.log?.event('job.state', { ...created, from: null, to: 'Iniciando' });
  try {
    await deps.enqueue({ jobId: l.jobId, correlationId });
  } catch {
    // Settled, the job holds its records no longer. The caller is told in the response, so no e-mail is due.
    const error = { code: 'QUEUE_UNAVAILABLE', message: 'the job could not be queued' };
    deps.log?.event('job.state', { ...created, from: 'Iniciando', to: 'Fallido', errorCode: error.code }, 'warn');
    await deps.jobs
      .transition(l.jobId, { from: 'Iniciando', to: 'Fallido' }, { error, emailSent: true })
      .then(() => deps.watch.remove(l.jobId))
      .catch(() => undefined);
    await forgetAnswer(deps, l);
    throw new DomainError(
      'The job could not be queued; nothing was started.',
      [violation('QUEUE_UNAVAILABLE', '', 'retry later')],
      5,
    );
  }
}

/**
 * Starts a deletion job for one record SIEX holds, of any kind: the job sends it with `Borrar: true`, and the record
 * is deleted here once SIEX accepted that. The answer (the job) is written with the claim, under the request's key if
 * any.
 */
export async function startDeletion(
  deps: StartExportDeps & { jobIds: IdSource; startAnswer: StartAnswer },
  client: Client,
  farm: FarmIndex,
  agrifarmId: string,
  record: TakenRecord,
  idempotency: RequestKey | null,
): Promise<RecordResult> {
  const jobId = await deps.jobIds.take();
  const result: RecordResult = {
    outcome: 'deletion-started',
    answerJson: deps.startAnswer({ jobId, kind: 'deletion' }),
  };
  const now = (deps.now ?? (() => dateTimeNow()))();
  await launchJob(deps, {
    kind: 'deletion',
    jobId,
    client,
    farm,
    agrifarmId,
    records: [record],
    now,
    ...(idempotency ? { idempotency: { ...idempotency, ...result } } : {}),
  });
  return result;
}

/** A job that was not started after all: the answer its claim wrote under the request's key must not be replayed. */
async function forgetAnswer(deps: StartExportDeps, l: Launch): Promise<void> {
  const [first] = l.records;
  if (l.idempotency && first)
    await deps.kinds
      .of(first.type)
      .marks.forgetIdempotency(l.farm.meta, l.idempotency.hash)
      .catch(() => undefined);
}

/**
 * The records of the body, in order, of any kind the export takes (two kinds' records 12 are two records); every
 * malformed or repeated one is a 400.
 */
function parseRefs(kinds: ExportKinds, body: { id: string }[]): RecordRef[] {
  const malformed: Violation[] = [];
  const refs: RecordRef[] = [];
  const seen = new Set<string>();
  body.forEach(({ id }, i) => {
    const ref = kinds.parse(id);
    if (ref === null) malformed.push(violation('INVALID_VALUE', `body[${i}].id`, `expected ${kinds.expected()}`));
    else if (seen.has(refKey(ref))) malformed.push(violation('INVALID_VALUE', `body[${i}].id`, `${id} appears twice`));
    else {
      seen.add(refKey(ref));
      refs.push(ref);
    }
  });
  if (malformed.length > 0) throw new DomainError('The record list is not valid.', malformed);
  return refs;
}
