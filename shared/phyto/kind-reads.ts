import { FarmIndex } from '../farms/farm-index';
import { KindReads } from '../records/kind-entry';
import { blockKeysOf } from '../siex/cue-mapping';
import { HARVEST_HOLDS } from '../rules/harvest-holds';
import { treatmentListFilter } from './list-filters';
import { HOLD_EXCERPT_VERSION, holdExcerpt, treatmentHolds } from './safe-harvest';
import { recordAnswer } from './record-answer';
import { RECORD_FORMAT, StoredTreatment, upgradeRecord } from './stored-record';

/** What reading treatments takes, without their rules: reads and lists never start them. */
export const phytoReads: KindReads = {
  format: RECORD_FORMAT,
  upgrade: upgradeRecord,
  // What a treatment holds from harvest, for the harvests' pre-harvest interval rule and the safe-harvest view: read
  // from the excerpt each record row keeps, so a harvest on a holding of thousands of treatments reads no record whole.
  publishes: {
    [HARVEST_HOLDS]: {
      excerpt: { version: HOLD_EXCERPT_VERSION, of: (record) => holdExcerpt(record as StoredTreatment) },
      facts: treatmentHolds,
    },
  },
  answer: recordAnswer,
  listFilter: treatmentListFilter,
  // A treatment may be registered up to the operators' MAX_BACKDATE_DAYS back: the key index keeps that much at hand.
  keyIndexDays: (maxBackdateDays) => maxBackdateDays,
  // Rows stored before block ids were kept: one block per crop and variety of the record's locations, as mapped then.
  legacyBlockKeys: (record: StoredTreatment, farm: FarmIndex) => blockKeysOf(record.idcp, farm),
};
