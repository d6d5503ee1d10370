import { Client } from '../clients/client-store';
import { DomainError, violation } from '../domain/errors';
import { FarmIndex } from '../farms/farm-index';
import { recordEtag, StoredAnswer } from './record-result';
import { RecordPointer, RecordView } from './record-rows';
import { RecordStore, StoredApplication } from './record-store';

/** Whether an unfinished export job holds the record (its id, or null): the export side answers, the core does not know jobs. */
export type JobHolding = (farm: FarmIndex, pointer: RecordPointer) => Promise<number | null>;

/** What amendments and deletions read and write of a kind's store (whose requests are the kind's stored documents). */
export type ChangeStore<Rec extends RecordView> = Pick<
  RecordStore<unknown, Rec>,
  'readApplication' | 'readRegistrationState' | 'commit' | 'readRecord'
>;

export interface ChangeInput {
  client: Client;
  agrifarmId: string;
  recordId: number;
  /** The `If-Match` header as sent (null: none). */
  ifMatch: string | null;
  idempotencyKey: string | null;
}

export function recordNotFound(id: number): DomainError {
  return new DomainError('No such record.', [
    violation('RECORD_NOT_FOUND', 'path.id', `record ${id} is not a record of this farm campaign`),
  ]);
}

/** `If-Match`: `*` or a list of ETags, one of which must be the record's current one (weak ones never match). */
function ifMatchHolds(header: string | null, version: number): boolean {
  if (header === null) return true;
  const tags = header.split(',').map((t) => t.trim());
  return tags.includes('*') || tags.includes(recordEtag(version));
}

/**
 * The record a change applies to, as its caller may change it: this farm campaign's, not deleted, at the version
 * `If-Match` names, and in no unfinished export job (whose SIEX document would no longer say what the record says).
 */
export async function changeableRecord(
  store: Pick<RecordStore<unknown, RecordView>, 'readApplication'>,
  heldByJob: JobHolding,
  farm: FarmIndex,
  input: ChangeInput,
  idemHash: string | null,
): Promise<{ replay: StoredAnswer } | { application: StoredApplication<unknown> }> {
  const { application, idempotency } = await store.readApplication(farm.meta, input.recordId, idemHash);
  if (idempotency) return { replay: idempotency };
  if (!application || application.request === null) throw recordNotFound(input.recordId);
  const { pointer } = application;
  if (!ifMatchHolds(input.ifMatch, pointer.version)) {
    throw new DomainError('The record changed since that version; read it again.', [
      violation(
        'PRECONDITION_FAILED',
        'header.If-Match',
        `the record is at ETag ${recordEtag(pointer.version)}, not ${input.ifMatch}`,
      ),
    ]);
  }
  if (pointer.exportState.kind === 'outcome-unknown') {
    // Whatever SIEX holds of it is not known: a change now could be undone, or a deletion doubled, by that job's outcome.
    throw new DomainError('Nobody knows yet whether SIEX took the last job that sent this record.', [
      violation(
        'RECORD_OUTCOME_UNKNOWN',
        'path.id',
        `job ${pointer.exportState.job} sent record ${pointer.id} to SIEX without learning the outcome`,
      ),
    ]);
  }
  const job = await heldByJob(farm, pointer);
  if (job !== null) {
    throw new DomainError('The record is in an export that has not finished.', [
      violation('RECORD_IN_EXPORT', 'path.id', `record ${pointer.id} is in export job ${job}, still running`),
    ]);
  }
  return { application: { pointer, request: application.request } };
}
