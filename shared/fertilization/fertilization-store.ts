import { FertilizeRecord } from '../api/fertilization-schemas';
import { RecordStore } from '../records/record-store';
import { TABLES, TableStore } from '../store/tables';
import { Fertilization } from './fertilization';
import { FERTILIZATION_FORMAT } from './record-view';

/** Fertilizations on the records core: the `fertilization` table, in the one format there has been. */
export class FertilizationStore extends RecordStore<Fertilization, FertilizeRecord> {
  constructor(tables: TableStore) {
    super(tables, { table: TABLES.fertilization, version: FERTILIZATION_FORMAT, upgrade: (record) => record });
  }
}
