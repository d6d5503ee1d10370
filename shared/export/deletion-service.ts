import { DateTime } from 'luxon';
import { VersionedValue } from '../cache/versioned-value';
import { ReferenceData } from '../catalog/reference-data';
import { Client } from '../clients/client-store';
import { accessibleFarm } from '../farms/farm-service';
import { FarmIndex } from '../farms/farm-index';
import { FarmReader } from '../farms/farm-store';
import { phytoKind } from '../phyto/phyto-kind';
import { ChangeInput, JobHolding } from '../records/changeable-record';
import { requestDeletion } from '../records/delete-record';
import { claimOf } from '../records/export-state';
import { RecordResult } from '../records/record-result';
import { RecordPointer } from '../records/record-store';
import { ChangeStore } from '../phyto/phyto-store';
import { IdSource } from '../store/counters';
import { jobsHolding, startDeletion, StartExportDeps } from './export-service';

export interface DeletionDeps extends StartExportDeps {
  farms: Pick<FarmReader, 'index'>;
  phyto: ChangeStore & StartExportDeps['phyto'];
  reference: VersionedValue<ReferenceData>;
  jobIds: IdSource;
  sleep?: (ms: number) => Promise<void>;
}

/** The unfinished export job that holds a record, or null (none, or a start abandoned long ago). */
export function jobHolding(jobs: StartExportDeps['jobs'], now: () => DateTime = () => DateTime.now()): JobHolding {
  return async (farm: FarmIndex, pointer: RecordPointer) => {
    const jobId = claimOf(pointer.exportState)?.jobId;
    return jobId !== undefined && (await jobsHolding(jobs, farm, [pointer], now())).has(jobId) ? jobId : null;
  };
}

/**
 * The DELETE operation: at once for a record SIEX never received (204); for one SIEX holds, a deletion job that sends
 * it there with `Borrar: true` (202), the record leaving the gateway once SIEX accepted that.
 */
export async function deleteRecord(deps: DeletionDeps, input: ChangeInput & { client: Client }): Promise<RecordResult> {
  const farm = await accessibleFarm(deps.farms, input.client, input.agrifarmId);
  const outcome = await requestDeletion(
    {
      kind: phytoKind,
      store: deps.phyto,
      reference: deps.reference,
      heldByJob: jobHolding(deps.jobs, deps.now),
      now: deps.now,
      sleep: deps.sleep,
    },
    farm,
    input,
  );
  if ('done' in outcome) return outcome.done;
  const job = await startDeletion(
    deps,
    input.client,
    farm,
    input.agrifarmId,
    outcome.inSiex.pointer,
    outcome.idempotency,
  );
  return { outcome: 'deletion-started', answerJson: job.body, replayed: false };
}
