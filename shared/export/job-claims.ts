import type { DateTime } from 'luxon';
import { FarmIndex } from '../farms/farm-index';
import { claimOf } from '../records/export-state';
import { RecordPointer } from '../records/record-rows';
import { isRestError } from '../store/azure-sdk';
import { jobMeta } from './job';
import { isSettled } from './job-status';
import { JobStore } from './job-store';

/**
 * A claim by a job that does not exist (yet) holds its records this long: the export that made it is still creating
 * the job, within its 30-second budget. Older, the export died between the two, and the records are free once its
 * job id is settled as abandoned (which also stops that export, should it be alive after all, from creating it).
 */
export const CLAIM_GRACE_MS = 60_000;

/** Job status rows read at once when checking which earlier jobs still hold the records. */
const STATUS_READS_IN_PARALLEL = 16;

/**
 * The jobs among those named by these records' claims that still hold them: a job not settled, or a claim by a job
 * not created yet that is younger than CLAIM_GRACE_MS. An older claim by a job that never appeared is settled as
 * abandoned by creating that job's status row as Fallido (seen by no client): whichever of this and the late export
 * creates the row first wins, so the late one can never create its job afterwards.
 */
export async function jobsHolding(
  jobs: Pick<JobStore, 'meta' | 'create'>,
  farm: FarmIndex,
  pointers: RecordPointer[],
  now: DateTime,
): Promise<Set<number>> {
  const claimedAt = new Map<number, number>();
  const claimedBy = new Map<number, string>();
  for (const claim of pointers.map((p) => claimOf(p.exportState))) {
    if (claim) {
      claimedAt.set(claim.jobId, Math.max(claimedAt.get(claim.jobId) ?? 0, claim.at));
      claimedBy.set(claim.jobId, claim.by);
    }
  }
  const jobIds = [...claimedAt.keys()];
  const holding = new Set<number>();
  const holds = async (jobId: number): Promise<boolean> => {
    const meta = await jobs.meta(jobId);
    if (meta) return !isSettled(meta.status);
    if (now.toMillis() - claimedAt.get(jobId)! < CLAIM_GRACE_MS) return true;
    const abandoned = {
      // Still the job of the client that asked for it, who may have been answered with its id: it reads Fallido.
      ...jobMeta(jobId, { id: claimedBy.get(jobId)!, email: '' }, farm, '', now, 0),
      status: 'Fallido' as const,
      error: {
        code: 'START_ABANDONED',
        message: 'the export that claimed the records stopped before creating its job',
      },
      emailSent: true,
    };
    try {
      await jobs.create(abandoned, []);
      return false;
    } catch (e) {
      if (!isRestError(e, 409)) throw e;
      return holds(jobId); // the late export created it first after all
    }
  };
  for (let i = 0; i < jobIds.length; i += STATUS_READS_IN_PARALLEL) {
    const group = jobIds.slice(i, i + STATUS_READS_IN_PARALLEL);
    const held = await Promise.all(group.map(holds));
    group.forEach((jobId, k) => held[k] && holding.add(jobId));
  }
  return holding;
}
