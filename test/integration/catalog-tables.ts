import { randomBytes } from 'node:crypto';
import { TableClient } from '@azure/data-tables';
import { TableName, TableStore } from '../../shared/store/tables';

/**
 * A TableStore whose tables carry a random prefix, so these tests can import, refresh and withdraw products in a
 * `catalog` table of their own: the shared Azurite also serves the gateway the e2e tests talk to, whose catalog
 * must not change under them.
 */
export class IsolatedTableStore extends TableStore {
  readonly prefix = `t${randomBytes(5).toString('hex')}`;

  constructor() {
    const connection = process.env.AzureWebJobsStorage;
    if (!connection)
      throw new Error('AzureWebJobsStorage is not set: run the tests through jest (global setup starts Azurite)');
    super({ AzureWebJobsStorage: connection });
  }

  override table(name: TableName): Promise<TableClient> {
    return super.table(`${this.prefix}${name}`);
  }

  async drop(): Promise<void> {
    const service = this.service();
    for await (const t of service.listTables({
      queryOptions: { filter: `TableName ge '${this.prefix}' and TableName lt '${this.prefix}~'` },
    })) {
      if (t.name) await service.deleteTable(t.name);
    }
  }
}
