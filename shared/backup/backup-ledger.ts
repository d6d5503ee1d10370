import type { TableClient } from '@azure/data-tables';
import { isRestError } from '../store/azure-sdk';

/**
 * The copy of each snapshot's manifest checksum kept outside the backup account (issue 36): a row per snapshot in the
 * data account's `backups` table, written by the backup once its manifest is, and the `backup.written` event in the
 * Log Analytics workspace (docs/operations.md, "Logs"). A restore reads the manifest from the backup account and
 * checks its SHA-256 against this copy, so a snapshot someone forged or replaced there is refused. The table is not
 * one of the gateway's (shared/store/tables.ts): it is not backed up, and no restore writes it.
 */
const LEDGER_TABLE = 'backups';
const PARTITION = 'manifest';

interface LedgerTables {
  table(name: string): Promise<TableClient>;
}

export class BackupLedger {
  constructor(private readonly tables: LedgerTables) {}

  async record(snapshot: string, manifestSha256: string): Promise<void> {
    const table = await this.tables.table(LEDGER_TABLE);
    await table.upsertEntity({ partitionKey: PARTITION, rowKey: snapshot, sha256: manifestSha256 }, 'Replace');
  }

  /** The checksum the backup recorded for the snapshot, or null when this account holds none. */
  async manifestSha256(snapshot: string): Promise<string | null> {
    const table = await this.tables.table(LEDGER_TABLE);
    try {
      const row = await table.getEntity<{ sha256: string }>(PARTITION, snapshot);
      return row.sha256;
    } catch (e) {
      if (isRestError(e, 404)) return null;
      throw e;
    }
  }
}
