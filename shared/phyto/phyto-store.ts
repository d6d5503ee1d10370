import { PhytoRecord, PhytoRequest } from '../api/phyto-schemas';
import { ChangeStore as KindChangeStore } from '../records/changeable-record';
import { RecordChange } from '../records/record-rows';
import { RecordStore, StoredApplication } from '../records/record-store';
import { TABLES, TableStore } from '../store/tables';
import { RECORD_FORMAT, upgradeRecord } from './record-view';

/** The URN type of treatments (`urn:ngsi-ld:AgriPhytosanitary:<id>`), the kind's name in jobs. */
export const TREATMENT_TYPE = 'AgriPhytosanitary';

/** Phytosanitary records on the records core: the `phyto` table, rows of older formats read through record-view.ts. */
export class PhytoStore extends RecordStore<PhytoRequest, PhytoRecord> {
  constructor(tables: TableStore) {
    super(tables, { table: TABLES.phyto, version: RECORD_FORMAT, upgrade: upgradeRecord });
  }
}

export type PhytoChange = RecordChange<PhytoRequest, PhytoRecord>;
export type StoredTreatment = StoredApplication<PhytoRequest>;

/** What amendments and deletions read and write. */
export type ChangeStore = KindChangeStore<PhytoRequest, PhytoRecord>;
