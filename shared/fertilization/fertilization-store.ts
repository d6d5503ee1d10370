import { RecordStore } from '../records/record-store';
import { TABLES, TableStore } from '../store/tables';
import { FERTILIZATION_FORMAT, StoredFertilization } from './stored-record';

/**
 * Fertilizations on the records core: the `fertilization` table. Pointers keep the request as the kind stores it
 * (stored-request.ts), which only the kind reads.
 */
export type FertilizationStore = RecordStore<unknown, StoredFertilization>;

export function fertilizationStore(tables: TableStore): FertilizationStore {
  return new RecordStore(tables, {
    table: TABLES.fertilization,
    version: FERTILIZATION_FORMAT,
    upgrade: (record) => record,
  });
}
