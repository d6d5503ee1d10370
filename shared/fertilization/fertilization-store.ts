import type { FertilizeRecord } from '../api/fertilization-schemas';
import { RecordStore } from '../records/record-store';
import { TABLES, TableStore } from '../store/tables';
import type { Fertilization } from './fertilization';

/** The format fertilizations are stored in (`fertilizationView` writes it): the first, so there is nothing to upgrade. */
export const FERTILIZATION_FORMAT = 1;

/** Fertilizations on the records core: the `fertilization` table. */
export type FertilizationStore = RecordStore<Fertilization, FertilizeRecord>;

export function fertilizationStore(tables: TableStore): FertilizationStore {
  return new RecordStore(tables, {
    table: TABLES.fertilization,
    version: FERTILIZATION_FORMAT,
    upgrade: (record) => record,
  });
}
