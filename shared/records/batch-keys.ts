import { isRestError } from '../store/azure-sdk';
import { TableName, TableStore } from '../store/tables';
import { FarmKey, holdingPartition, idempotencyRowKey } from './record-keys';

/**
 * The Idempotency-Keys of a kind's registration batches, in its table beside the registrations' own, in the holding's
 * partition (`k~<hash>`, the hash of the client, the key and the word "batch", so a batch key never meets a single
 * registration's). The row holds only the fingerprint of the whole batch: each item is stored with a key of its own
 * derived from the batch's (batch-register.ts), so the items answer for themselves, and a batch whose first attempt
 * died half-way is resumed by its retry rather than stored twice.
 */
export class BatchKeyStore {
  constructor(
    private readonly tables: TableStore,
    private readonly table: TableName,
  ) {}

  /**
   * Writes the batch's fingerprint under its key, or reads the one written first. True when the key is this batch's
   * (new, or the same batch again, whose earlier answer may have been lost), false when it named another batch.
   */
  async claim(farm: FarmKey, hash: string, fingerprint: string): Promise<boolean> {
    const table = await this.tables.farmTable(this.table, farm);
    const keys = { partitionKey: holdingPartition(farm), rowKey: idempotencyRowKey(hash) };
    try {
      await table.createEntity({ ...keys, batchHash: fingerprint });
      return true;
    } catch (e) {
      // A conflict is the key seen before, or this very write landing with its answer lost: the stored fingerprint
      // tells both apart from another batch.
      if (!isRestError(e, 409)) throw e;
      const row = await table.getEntity<{ batchHash?: string }>(keys.partitionKey, keys.rowKey);
      return row.batchHash === fingerprint;
    }
  }
}
