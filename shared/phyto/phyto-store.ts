import { ChangeStore as KindChangeStore } from '../records/changeable-record';
import { RecordChange } from '../records/record-rows';
import { RecordStore } from '../records/record-store';
import { TableStore } from '../store/tables';
import { phytoEntry } from './kind-entry';
import { RECORD_FORMAT, StoredTreatment, upgradeRecord } from './stored-record';

/**
 * Phytosanitary records on the records core: the `phyto` table, rows of older formats read through stored-record.ts.
 * Pointers keep the request as the kind stores it (stored-request.ts), which only the kind reads.
 */
export class PhytoStore extends RecordStore<unknown, StoredTreatment> {
  constructor(tables: TableStore) {
    super(tables, { table: phytoEntry.table, version: RECORD_FORMAT, upgrade: upgradeRecord });
  }
}

export type PhytoChange = RecordChange<unknown, StoredTreatment>;

/** What amendments and deletions read and write. */
export type ChangeStore = KindChangeStore<StoredTreatment>;
