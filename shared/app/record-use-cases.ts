import type { DateTime } from 'luxon';
import type { RecordVersion } from '../api/history-schemas';
import type { Client } from '../clients/client-store';
import type { DeletionDeps } from '../export/deletion-service';
import type { JobStore } from '../export/job-store';
import type { FarmReader } from '../farms/farm-store';
import type { AmendInput } from '../records/amend-record';
import type { BatchInput, BatchItemOutcome } from '../records/batch-register';
import type { ChangeInput } from '../records/changeable-record';
import type { KindEntry } from '../records/kind-entry';
import type { ListPage, ListQuery } from '../records/list-records';
import type { RecordResult } from '../records/record-result';
import type { JudgingDeps, RegisterInput } from '../records/register-record';
import type { KindStores } from './kind-parts';
import { needing } from './modules';

/** The operations on one record kind's records, as the records core offers them for every kind. */
export interface RecordUseCases<Answer = unknown> {
  register(input: RegisterInput): Promise<RecordResult>;
  /** Each item registered as if alone, in order; the edge renders the outcomes. */
  batch(input: BatchInput): Promise<BatchItemOutcome[]>;
  amend(input: AmendInput): Promise<RecordResult>;
  /** One record of the caller's farm campaign, with its version. */
  read(client: Client, agrifarmId: string, recordId: number): Promise<RecordResult>;
  /** Deleted at once, or a job started that deletes the record in SIEX first. */
  delete(input: ChangeInput): Promise<RecordResult>;
  history(client: Client, agrifarmId: string, recordId: number): Promise<RecordVersion[]>;
  /** `rawQuery` is the query string as sent, for the rules a schema cannot state (a misspelt `page-size`). */
  list(
    client: Client,
    agrifarmId: string,
    rawQuery: Record<string, string>,
    query: ListQuery,
  ): Promise<ListPage<Answer>>;
}

/** What every kind's operations share: the farms, what judging a record takes, the jobs, the deletion jobs' parts. */
export interface RecordUseCaseParts {
  farms: FarmReader;
  judging: JudgingDeps;
  kinds: KindStores;
  jobs: JobStore;
  deletion: () => Promise<DeletionDeps>;
  now?: () => DateTime;
}

/**
 * The records core's operations on one kind. What changes records takes the kind with its rules (`load.kind`); what
 * reads them only its read side (`load.reads`), so a list never starts the kind's rules.
 */
export function recordUseCases(shared: RecordUseCaseParts, entry: KindEntry): RecordUseCases {
  const { judging } = shared;
  const parts = () => shared.kinds.of(entry);
  return {
    register: needing(['registration'], ({ registration }, input: RegisterInput) => {
      const { store, ids } = parts();
      return registration.registerRecord({ ...judging, kind: entry.load.kind(), store, ids }, input);
    }),
    batch: needing(['batch'], ({ batch }, input: BatchInput) => {
      const { store, ids, batchKeys } = parts();
      return batch.registerBatch({ ...judging, kind: entry.load.kind(), store, ids, batchKeys }, input);
    }),
    amend: needing(['amendment', 'deletion'], ({ amendment, deletion }, input: AmendInput) => {
      const { store, ids } = parts();
      const heldByJob = deletion.jobHolding(shared.jobs, shared.now);
      return amendment.amendRecord({ ...judging, kind: entry.load.kind(), store, ids, heldByJob }, input);
    }),
    delete: needing(['deletion'], async ({ deletion }, input: ChangeInput) =>
      deletion.deleteRecord(await shared.deletion(), { kind: entry.load.kind(), store: parts().store }, input),
    ),
    read: needing(['farms', 'reading'], async ({ farms, reading }, client: Client, agrifarmId: string, id: number) => {
      const farm = await farms.accessibleFarm(shared.farms, client, agrifarmId);
      return reading.readRecordAnswer(entry.load.reads(), parts().store, farm, id);
    }),
    history: needing(
      ['farms', 'reading'],
      async ({ farms, reading }, client: Client, agrifarmId: string, id: number) => {
        const farm = await farms.accessibleFarm(shared.farms, client, agrifarmId);
        return reading.recordVersions(parts().store, farm, id);
      },
    ),
    list: needing(
      ['farms', 'listing'],
      async ({ farms, listing }, client: Client, agrifarmId: string, raw: Record<string, string>, query: ListQuery) => {
        const reads = entry.load.reads();
        const { store, keys } = parts();
        const farm = await farms.accessibleFarm(shared.farms, client, agrifarmId);
        return listing.listRecords({ kind: reads, store, index: keys }, farm, raw, query, reads.listFilter(query));
      },
    ),
  };
}
