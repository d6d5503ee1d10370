import type { TransactionAction } from '@azure/data-tables';
import { isRestError } from '../store/azure-sdk';
import {
  inParallel,
  MAX_TRANSACTION_OPERATIONS,
  submitInChunks,
  TRANSACTIONS_IN_PARALLEL,
} from '../store/batched-query';
import { toDocProps } from '../store/doc-entity';
import { despiteLostAnswer } from '../store/lost-answer';
import { BlockIds, blockIdsColumn } from './block-ids';
import { acceptedBySiex, Claim, claimed, claimOf, isExported, SiexBodies, siexWasTold } from './export-state';
import { exportStateRow } from './export-state-row';
import { FarmKey, holdingPartition, idempotencyRowKey, pointerRowKey } from './record-keys';
import { IdempotencyEntry, idempotencyEntity, RecordPointer, RecordView, versionEntity } from './record-rows';
import { RecordStore, WriteConflict } from './record-store';
import { RecordVersion } from './record-version';

/** A record SIEX accepted: its row and record as the job read them, and the IdAjena of the blocks SIEX now holds. */
interface AcceptedRecord<Rec> {
  id: number;
  recordRowKey: string;
  record: Rec;
  blocks: number[];
  /** Those blocks as sent, by IdAjena: what their `Borrar` will repeat (cue-blocks.ts). */
  bodies?: SiexBodies;
}

/**
 * What the export writes on a kind's records, beside the records core's changes (record-store.ts): the block ids a
 * record of the old way gets before it is first sent, the claims of jobs, the outcomes SIEX may hold unknown, and the
 * marking of what SIEX accepted. Each is written under the ETags the export read, or blind where only one column moves.
 */
export class ExportMarks<Rec extends RecordView> {
  constructor(private readonly records: Pick<RecordStore<unknown, Rec>, 'table' | 'format' | 'readPointers'>) {}

  /**
   * Gives a row of the old way its block ids (the migration of issue 23, item 2): its pointer and its record row in
   * one transaction, under the pointer's ETag, so a record changed meanwhile keeps what its change wrote (WriteConflict;
   * the ids taken for it are only lost numbers). Answers the pointer as it now is.
   */
  async setBlockIds(farm: FarmKey, pointer: RecordPointer, blockIds: BlockIds): Promise<RecordPointer> {
    const pk = holdingPartition(farm);
    const ids = blockIdsColumn(blockIds);
    try {
      const res = await (
        await this.records.table(farm)
      ).submitTransaction([
        ['update', { partitionKey: pk, rowKey: pointerRowKey(pointer.id), ...ids }, 'Merge', { etag: pointer.etag }],
        ['update', { partitionKey: pk, rowKey: pointer.recordRowKey, ...ids }, 'Merge'],
      ]);
      return { ...pointer, blockIds, etag: res.subResponses[0]?.etag ?? '' };
    } catch (e) {
      if (isRestError(e, 409, 412, 404)) throw new WriteConflict(e.message);
      throw e;
    }
  }

  /**
   * Marks records as taken by an export job, under the ETags read when they were checked: all or none. A record
   * exported or taken by another job in between makes this fail with WriteConflict, after giving back what it had
   * already taken (a transaction holds 100 rows, so a large job is claimed in several).
   */
  async claim(
    farm: FarmKey,
    pointers: RecordPointer[],
    claim: Claim,
    idempotency?: IdempotencyEntry & { hash: string },
  ): Promise<void> {
    if (pointers.length === 0) return;
    const table = await this.records.table(farm);
    const pk = holdingPartition(farm);
    // Every move checked before the first write: a record no job may take refuses the whole claim, with nothing taken.
    const claimedState = new Map(pointers.map((p) => [p.id, claimed(p.exportState, claim)]));
    const taken: { pointer: RecordPointer; etag: string }[] = [];
    // The request's key is written with the first chunk (one operation of it), so its answer and the claim go together.
    const size = MAX_TRANSACTION_OPERATIONS;
    const first = idempotency ? size - 1 : size;
    const chunks = [pointers.slice(0, first)];
    for (let i = first; i < pointers.length; i += size) chunks.push(pointers.slice(i, i + size));
    const claimChunk = async (chunk: RecordPointer[], withKey: boolean) => {
      const etags = await despiteLostAnswer(
        async () => {
          const res = await table.submitTransaction([
            ...chunk.map((p): TransactionAction => [
              'update',
              { partitionKey: pk, rowKey: pointerRowKey(p.id), ...exportStateRow(claimedState.get(p.id)!) },
              'Merge',
              { etag: p.etag },
            ]),
            ...(withKey && idempotency ? [['create', idempotencyEntity(pk, idempotency)] as TransactionAction] : []),
          ]);
          // Sub-responses come in the order of the operations (they carry no row key).
          return chunk.map((_, k) => res.subResponses[k]?.etag ?? '');
        },
        // Landed if its rows name this job (a deletion's key would otherwise answer a job never created).
        async () => {
          const now = await this.records.readPointers(
            farm,
            chunk.map((p) => p.id),
          );
          const rows = chunk.map((p) => now.get(p.id));
          const took = rows.every((row) => row && claimOf(row.exportState)?.jobId === claim.jobId);
          return took ? rows.map((row) => row!.etag) : undefined;
        },
      );
      chunk.forEach((pointer, k) => taken.push({ pointer, etag: etags[k] ?? '' }));
    };
    try {
      // The first chunk alone: of two requests for the same records, the one that takes it goes on, the other stops
      // there. The rest in parallel, their order irrelevant since a conflict anywhere gives back all that was taken.
      await claimChunk(chunks[0]!, true);
      await inParallel(chunks.slice(1), TRANSACTIONS_IN_PARALLEL, (chunk) => claimChunk(chunk, false));
    } catch (e) {
      if (!isRestError(e, 409, 412, 404)) throw e;
      // Given back under the ETags this claim wrote: a row someone changed since is theirs, and is left alone.
      await Promise.allSettled(
        taken
          .filter(({ etag }) => etag !== '')
          .map(({ pointer, etag }) =>
            table.updateEntity(
              { partitionKey: pk, rowKey: pointerRowKey(pointer.id), ...exportStateRow(pointer.exportState) },
              'Merge',
              { etag },
            ),
          ),
      );
      throw new WriteConflict(e.message);
    }
  }

  /**
   * Forgets the answer a claim wrote under a request's key, when the job it names was not started after all (its
   * records lost to another request, or its queue unavailable): a retry under that key then starts anew instead of
   * being told of a job that never ran.
   */
  async forgetIdempotency(farm: FarmKey, hash: string): Promise<void> {
    const table = await this.records.table(farm);
    await table.deleteEntity(holdingPartition(farm), idempotencyRowKey(hash)).catch((e: unknown) => {
      if (!isRestError(e, 404)) throw e;
    });
  }

  /**
   * Records a failed job may have sent to SIEX move to `outcome-unknown` (what is known kept beside it): exporting,
   * amending or deleting them is refused until their outcome is known. Written blind, the one column that says so
   * (export-state-row.ts): no read first, whatever the known state is.
   */
  async markOutcomeUnknown(farm: FarmKey, ids: number[], jobId: number): Promise<void> {
    await this.setOutcomeUnknownJob(farm, ids, jobId);
  }

  /** Their outcome is known now (SIEX said, or support checked): they move back to the known state, written blind. */
  async clearOutcomeUnknown(farm: FarmKey, ids: number[]): Promise<void> {
    await this.setOutcomeUnknownJob(farm, ids, 0);
  }

  private async setOutcomeUnknownJob(farm: FarmKey, ids: number[], jobId: number): Promise<void> {
    const pk = holdingPartition(farm);
    await submitInChunks(
      await this.records.table(farm),
      ids.map((id): TransactionAction => [
        'update',
        { partitionKey: pk, rowKey: pointerRowKey(id), outcomeUnknownJob: jobId },
        'Merge',
      ]),
    );
  }

  /**
   * Records SIEX accepted: `exported` becomes "1" on the record and its pointer, and the record gains an `exported`
   * version (`re-exported` when SIEX had an earlier one). Applied once: a record already marked is left as it is, so
   * a redelivered job adds no second version.
   */
  async markExported(
    farm: FarmKey,
    accepted: AcceptedRecord<Rec>[],
    job: { jobId: number; clientId: string; at: string },
  ): Promise<void> {
    const table = await this.records.table(farm);
    const pk = holdingPartition(farm);
    const pointers = await this.records.readPointers(
      farm,
      accepted.map((a) => a.id),
    );
    // A record's three rows are one unit: it is marked whole or not at all, whichever transaction it falls in.
    const units: TransactionAction[][] = accepted.flatMap(
      ({ id, recordRowKey, record, blocks, bodies }): TransactionAction[][] => {
        const p = pointers.get(id);
        if (!p || isExported(p.exportState)) return [];
        const version = p.version + 1;
        const entry: RecordVersion = {
          version,
          date: job.at,
          client: job.clientId,
          kind: siexWasTold(p.exportState) ? 're-exported' : 'exported',
          jobId: job.jobId,
          changes: [{ field: 'exported', old: '0', new: '1' }],
        };
        return [
          [
            [
              'update',
              {
                partitionKey: pk,
                rowKey: recordRowKey,
                exported: '1',
                format: this.records.format.version,
                ...toDocProps({ ...record, exported: '1', dateModified: job.at }),
              },
              'Merge',
            ],
            [
              'update',
              {
                partitionKey: pk,
                rowKey: pointerRowKey(id),
                ...exportStateRow(acceptedBySiex(p.exportState, blocks, bodies)),
                version,
              },
              'Merge',
              { etag: p.etag },
            ],
            versionEntity(pk, id, entry),
          ],
        ];
      },
    );
    // Records are independent of each other, and marking one is idempotent (its pointer says so): any order will do.
    await submitInChunks(table, units, TRANSACTIONS_IN_PARALLEL);
  }
}
