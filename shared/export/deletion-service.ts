import { DateTime } from 'luxon';
import { Client } from '../clients/client-store';
import { accessibleFarm } from '../farms/farm-service';
import { FarmReader } from '../farms/farm-store';
import { FarmIndex } from '../farms/farm-index';
import { ChangeInput, JobHolding } from '../phyto/amend-service';
import { deleteApplication } from '../phyto/delete-service';
import { ChangeStore, RecordPointer } from '../phyto/phyto-store';
import { jobsHolding, StartExportDeps } from './export-service';

export interface DeletionDeps {
  farms: Pick<FarmReader, 'index'>;
  phyto: ChangeStore;
  jobs: StartExportDeps['jobs'];
  now?: () => DateTime;
  sleep?: (ms: number) => Promise<void>;
}

/** The unfinished export job that holds a record, or null (none, or a start abandoned long ago). */
export function jobHolding(jobs: StartExportDeps['jobs'], now: () => DateTime = () => DateTime.now()): JobHolding {
  return async (farm: FarmIndex, pointer: RecordPointer) =>
    (await jobsHolding(jobs, farm, [pointer], now())).has(pointer.jobId) ? pointer.jobId : null;
}

/** The DELETE operation: at once for a record SIEX never received (204); through a job that tells SIEX otherwise (202). */
export async function deleteRecord(
  deps: DeletionDeps,
  input: ChangeInput & { client: Client },
): Promise<{ status: number; body: string }> {
  const farm = await accessibleFarm(deps.farms, input.client, input.agrifarmId);
  const outcome = await deleteApplication(
    { store: deps.phyto, heldByJob: jobHolding(deps.jobs, deps.now), now: deps.now, sleep: deps.sleep },
    farm,
    input,
  );
  if ('done' in outcome) return outcome.done;
  throw new Error('deleting a record SIEX holds is not built yet');
}
