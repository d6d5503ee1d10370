import type { DateTime } from 'luxon';
import { VersionedValue } from '../cache/versioned-value';
import { ReferenceData } from '../catalog/reference-data';
import { Client } from '../clients/client-store';
import { accessibleFarm } from '../farms/farm-service';
import { FarmIndex } from '../farms/farm-index';
import { FarmReader } from '../farms/farm-store';
import { ChangeInput, ChangeStore, JobHolding } from '../records/changeable-record';
import { requestDeletion } from '../records/delete-record';
import { claimOf } from '../records/export-state';
import { RecordResult } from '../records/record-result';
import { RecordKind } from '../records/record-kind';
import { RecordPointer, RecordView } from '../records/record-rows';
import { IdSource } from '../store/counters';
import { startDeletion, StartExportDeps } from './export-service';
import { StartAnswer } from './export-result';
import { jobsHolding } from './job-claims';
import { dateTimeNow } from '../time/date-time';

export interface DeletionDeps extends StartExportDeps {
  farms: Pick<FarmReader, 'index'>;
  reference: VersionedValue<ReferenceData>;
  jobIds: IdSource;
  startAnswer: StartAnswer;
  sleep?: (ms: number) => Promise<void>;
}

/** The unfinished export job that holds a record, or null (none, or a start abandoned long ago). */
export function jobHolding(jobs: StartExportDeps['jobs'], now: () => DateTime = () => dateTimeNow()): JobHolding {
  return async (farm: FarmIndex, pointer: RecordPointer) => {
    const jobId = claimOf(pointer.exportState)?.jobId;
    return jobId !== undefined && (await jobsHolding(jobs, farm, [pointer], now())).has(jobId) ? jobId : null;
  };
}

/**
 * The DELETE operation of a record of any kind: at once for a record SIEX never received (`deleted`); for one SIEX
 * holds, a deletion job that sends it there with `Borrar: true` (`deletion-started`), the record leaving the gateway
 * once SIEX accepted that.
 */
export async function deleteRecord<Req, Rec extends RecordView>(
  deps: DeletionDeps,
  of: { kind: RecordKind<Req, Rec>; store: ChangeStore<Rec> },
  input: ChangeInput & { client: Client },
): Promise<RecordResult> {
  const farm = await accessibleFarm(deps.farms, input.client, input.agrifarmId);
  const outcome = await requestDeletion(
    {
      kind: of.kind,
      store: of.store,
      reference: deps.reference,
      heldByJob: jobHolding(deps.jobs, deps.now),
      now: deps.now,
      sleep: deps.sleep,
    },
    farm,
    input,
  );
  if ('done' in outcome) return outcome.done;
  const record = { type: of.kind.urnType, pointer: outcome.inSiex.pointer };
  return startDeletion(deps, input.client, farm, input.agrifarmId, record, outcome.idempotency);
}
