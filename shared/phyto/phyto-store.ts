import { PhytoRecord } from './wire-record';
import { PhytoRequest } from './wire';
import { ChangeStore as KindChangeStore } from '../records/changeable-record';
import { RecordChange } from '../records/record-rows';
import { RecordStore, StoredApplication } from '../records/record-store';
import { TableStore } from '../store/tables';
import { phytoEntry } from './kind-entry';
import { RECORD_FORMAT, upgradeRecord } from './record-view';

/** Phytosanitary records on the records core: the `phyto` table, rows of older formats read through record-view.ts. */
export class PhytoStore extends RecordStore<PhytoRequest, PhytoRecord> {
  constructor(tables: TableStore) {
    super(tables, { table: phytoEntry.table, version: RECORD_FORMAT, upgrade: upgradeRecord });
  }
}

export type PhytoChange = RecordChange<PhytoRequest, PhytoRecord>;
export type StoredTreatment = StoredApplication<PhytoRequest>;

/** What amendments and deletions read and write. */
export type ChangeStore = KindChangeStore<PhytoRequest, PhytoRecord>;
