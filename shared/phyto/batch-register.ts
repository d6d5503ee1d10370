import { Client } from '../clients/client-store';
import { accessibleFarm } from '../farms/farm-service';
import { DomainError, violation } from '../domain/errors';
import { zodViolations } from '../domain/validation';
import { idempotencyHash, requestFingerprint } from '../idempotency/idempotency';
import { RecordResult } from '../records/record-result';
import { registerRecord, RegisterDeps } from '../records/register-record';
import { BatchKeyStore } from './batch-keys';
import { PhytoResolution } from './phyto-kind';
import { StoredTreatment } from './stored-record';
import { Treatment } from './treatment';

export interface BatchDeps extends RegisterDeps<Treatment, StoredTreatment, PhytoResolution> {
  batchKeys: Pick<BatchKeyStore, 'claim'>;
}

export interface BatchInput {
  client: Client;
  agrifarmId: string;
  exported: boolean;
  /** The items as sent: each is validated as a registration on its own. */
  items: unknown[];
  idempotencyKey: string | null;
}

/** One item's outcome: what registering it alone answered, or why it was refused. */
export type BatchItemOutcome = { index: number; stored: RecordResult } | { index: number; refused: DomainError };

/**
 * The key of item `index` of a batch sent under `batchKey`. Header values hold no line feed, so no key a client sends
 * alone can be one of these.
 */
const itemKey = (batchKey: string, index: number) => `${batchKey}\nitem ${index}`;

/**
 * Registers each item as if it were sent alone, in order (so later items count the applications of earlier ones),
 * each in its own transaction: a refused item stores nothing and does not stop the next.
 *
 * Under an Idempotency-Key the batch is one request: its fingerprint is written under the key first (another batch
 * under that key is 422, before anything is judged), and each item is registered under a key derived from the batch's
 * and its position. A retry, whether the first attempt answered or died half-way, gets each stored item's first answer
 * from that item's own entry and judges only the items that were not stored: nothing is stored twice.
 */
export async function registerBatch(deps: BatchDeps, input: BatchInput): Promise<BatchItemOutcome[]> {
  const farm = await accessibleFarm(deps.farms, input.client, input.agrifarmId);
  if (input.idempotencyKey) {
    const fingerprint = requestFingerprint({
      agrifarmId: input.agrifarmId,
      exported: input.exported,
      batch: input.items,
    });
    const hash = idempotencyHash(input.client.id, `batch\n${input.idempotencyKey}`);
    if (!(await deps.batchKeys.claim(farm.meta, hash, fingerprint))) {
      throw new DomainError('The Idempotency-Key was already used for a different batch.', [
        violation('IDEMPOTENCY_KEY_REUSED', 'header.Idempotency-Key', 'use a new key for a new batch'),
      ]);
    }
  }
  const outcomes: BatchItemOutcome[] = [];
  for (const [index, item] of input.items.entries()) {
    const parsed = deps.kind.wire.request.safeParse(item, { reportInput: true });
    if (!parsed.success) {
      // The paths a single registration would name (`body.dose`): the item's index says which one it is.
      outcomes.push({
        index,
        refused: new DomainError('The request is not valid.', zodViolations('body', parsed.error)),
      });
      continue;
    }
    try {
      const stored = await registerRecord(deps, {
        client: input.client,
        agrifarmId: input.agrifarmId,
        exported: input.exported,
        body: parsed.data,
        idempotencyKey: input.idempotencyKey && itemKey(input.idempotencyKey, index),
      });
      outcomes.push({ index, stored });
    } catch (e) {
      // Refusals are the item's answer; anything else (storage unavailable) stops the batch, to be retried whole.
      if (!(e instanceof DomainError)) throw e;
      outcomes.push({ index, refused: e });
    }
  }
  return outcomes;
}
