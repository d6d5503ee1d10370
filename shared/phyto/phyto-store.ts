import { ChangeStore as KindChangeStore } from '../records/changeable-record';
import { RecordChange } from '../records/record-rows';
import { kindFormat } from '../records/kind-format';
import { RecordStore } from '../records/record-store';
import { TableStore } from '../store/tables';
import { phytoEntry } from './kind-entry';
import { phytoReads } from './kind-reads';
import { StoredTreatment } from './stored-record';

/**
 * Phytosanitary records on the records core, stored as the app stores them (kind-format.ts): the `phyto` table, rows of
 * older formats read through stored-record.ts.
 * Pointers keep the request as the kind stores it (stored-request.ts), which only the kind reads.
 */
export class PhytoStore extends RecordStore<unknown, StoredTreatment> {
  constructor(tables: TableStore) {
    super(tables, kindFormat(phytoEntry, phytoReads));
  }
}

export type PhytoChange = RecordChange<unknown, StoredTreatment>;

/** What amendments and deletions read and write. */
export type ChangeStore = KindChangeStore<StoredTreatment>;
