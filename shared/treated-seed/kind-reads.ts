import { FarmIndex } from '../farms/farm-index';
import { KindReads } from '../records/kind-entry';
import { answerOf, partListFilter } from '../plant-protection/part-kind';
import { mapTreatedSeed } from './cue-block';
import { StoredTreatedSeed, TREATED_SEED_FORMAT } from './treated-seed';
import { TreatedSeedListFilters } from './wire-mapper';

/**
 * A record as every answer shows it: with what an export would refuse of it now, by the export's own mapping
 * (cue-block.ts), worked out on each answer since the farm's data can change under it.
 */
export function treatedSeedAnswer(record: StoredTreatedSeed, farm: FarmIndex) {
  return answerOf(record, mapTreatedSeed(record, farm));
}

/** What reading treated seed takes, without its rules: reads and lists never start them. */
export const treatedSeedReads: KindReads = {
  format: TREATED_SEED_FORMAT,
  // The first format: nothing older to read.
  upgrade: (record) => record,
  answer: treatedSeedAnswer,
  // Rows keep the crop as their list value (treated-seed-kind.ts).
  listFilter: ({ crop, ...q }: TreatedSeedListFilters) => partListFilter({ ...q, product: crop }),
  // It may be registered as far back as the operators' MAX_BACKDATE_DAYS (treated-seed-kind.ts).
  keyIndexDays: (maxBackdateDays) => maxBackdateDays,
};
