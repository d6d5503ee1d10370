import type { Client } from '../clients/client-store';
import type { RecordVersion } from '../api/history-schemas';
import type { DeletionDeps } from '../export/deletion-service';
import type { JobStore } from '../export/job-store';
import type { FarmReader } from '../farms/farm-store';
import type { AmendInput } from '../records/amend-record';
import type { ChangeInput } from '../records/changeable-record';
import type { ListFilter, ListPage, ListQuery } from '../records/list-records';
import type { RecordKeyIndex } from '../records/record-key-index';
import type { RecordKind } from '../records/record-kind';
import type { RecordResult } from '../records/record-result';
import type { RecordStore, RecordView } from '../records/record-store';
import type { JudgingDeps, RegisterInput } from '../records/register-record';
import type { IdSource } from '../store/counters';
import type { DateTime } from 'luxon';

/** The operations on one record kind's records, as the records core offers them for every kind. */
export interface RecordUseCases<Filters extends ListQuery, Answer> {
  register: (input: RegisterInput) => Promise<RecordResult>;
  amend: (input: AmendInput) => Promise<RecordResult>;
  read: (client: Client, agrifarmId: string, recordId: number) => Promise<RecordResult>;
  /** Deleted at once, or a job started that deletes the record in SIEX first. */
  delete: (input: ChangeInput) => Promise<RecordResult>;
  history: (client: Client, agrifarmId: string, recordId: number) => Promise<RecordVersion[]>;
  /** `rawQuery` is the query string as sent, for the rules a schema cannot state (a misspelt `page-size`). */
  list: (
    client: Client,
    agrifarmId: string,
    rawQuery: Record<string, string>,
    filters: Filters,
  ) => Promise<ListPage<Answer>>;
}

/**
 * Where one kind's operations take their parts from. Each part that starts a module is a function called on first
 * use: reads and lists take `answer` only and never start the kind's rules (docs/architecture.md, "Cold start").
 */
export interface RecordKindSource<Req, Rec extends RecordView, Res, Answer, Filters extends ListQuery> {
  /** The kind with its rules, for what changes records. */
  kind: () => Promise<RecordKind<Req, Rec, Res, Answer>>;
  /** How the kind answers a record, for what reads them. */
  answer: () => Promise<RecordKind<Req, Rec, Res, Answer>['answer']>;
  store: RecordStore<unknown, Rec>;
  /** The kind's counter: record ids and the IdAjena of their blocks. */
  ids: () => Promise<IdSource>;
  /** The kind's key index, which lists count with. */
  keys: () => Promise<Pick<RecordKeyIndex, 'keys'>>;
  listFilter: (filters: Filters) => Promise<ListFilter<Answer>>;
}

/** What every kind's operations share: the farms, what judging a record takes, the jobs, the deletion jobs' parts. */
export interface RecordUseCaseParts {
  farms: FarmReader;
  judging: JudgingDeps;
  jobs: JobStore;
  deletion: () => Promise<DeletionDeps>;
  now?: () => DateTime;
}

/** The records core's operations for one kind; each imports its service's module on its first call. */
export function recordUseCases<Req, Rec extends RecordView, Res, Answer, Filters extends ListQuery>(
  shared: RecordUseCaseParts,
  source: RecordKindSource<Req, Rec, Res, Answer, Filters>,
): RecordUseCases<Filters, Answer> {
  const { store } = source;
  const { judging } = shared;
  return {
    register: async (input) => {
      const [{ registerRecord }, kind, ids] = await Promise.all([
        import('../records/register-record'),
        source.kind(),
        source.ids(),
      ]);
      return registerRecord({ ...judging, kind, store, ids }, input);
    },
    amend: async (input) => {
      const [{ amendRecord }, { jobHolding }, kind, ids] = await Promise.all([
        import('../records/amend-record'),
        import('../export/deletion-service'),
        source.kind(),
        source.ids(),
      ]);
      return amendRecord({ ...judging, kind, store, ids, heldByJob: jobHolding(shared.jobs, shared.now) }, input);
    },
    delete: async (input) => {
      const [{ deleteRecord }, kind] = await Promise.all([import('../export/deletion-service'), source.kind()]);
      return deleteRecord(await shared.deletion(), { kind, store }, input);
    },
    read: async (client, agrifarmId, recordId) => {
      const [{ accessibleFarm }, { readRecordAnswer }, answer] = await Promise.all([
        import('../farms/farm-service'),
        import('../records/read-record'),
        source.answer(),
      ]);
      return readRecordAnswer({ answer }, store, await accessibleFarm(shared.farms, client, agrifarmId), recordId);
    },
    history: async (client, agrifarmId, recordId) => {
      const [{ accessibleFarm }, { recordVersions }] = await Promise.all([
        import('../farms/farm-service'),
        import('../records/read-record'),
      ]);
      return recordVersions(store, await accessibleFarm(shared.farms, client, agrifarmId), recordId);
    },
    list: async (client, agrifarmId, rawQuery, filters) => {
      const [{ accessibleFarm }, { listRecords }, answer, index, filter] = await Promise.all([
        import('../farms/farm-service'),
        import('../records/list-records'),
        source.answer(),
        source.keys(),
        source.listFilter(filters),
      ]);
      const farm = await accessibleFarm(shared.farms, client, agrifarmId);
      return listRecords({ kind: { answer }, store, index }, farm, rawQuery, filters, filter);
    },
  };
}
