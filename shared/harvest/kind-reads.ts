import { KindReads } from '../records/kind-entry';
import { harvestListFilter } from './list-filters';
import { harvestAnswer } from './record-answer';
import { HARVEST_FORMAT } from './stored-record';

/** What reading harvests takes, without their rules: reads and lists never start them. */
export const harvestReads: KindReads = {
  format: HARVEST_FORMAT,
  // The first format: nothing older to read.
  upgrade: (record) => record,
  answer: harvestAnswer,
  listFilter: harvestListFilter,
  // A harvest may be registered as far back as the operators' MAX_BACKDATE_DAYS (harvest-kind.ts).
  keyIndexDays: (maxBackdateDays) => maxBackdateDays,
};
