import { FarmIndex } from '../farms/farm-index';
import { KindReads } from '../records/kind-entry';
import { answerOf, partListFilter } from '../plant-protection/part-kind';
import { mapPostHarvest } from './cue-block';
import { POST_HARVEST_FORMAT, StoredPostHarvest } from './post-harvest';
import { PostHarvestListFilters } from './wire-mapper';

/**
 * A record as every answer shows it: with what an export would refuse of it now, by the export's own mapping
 * (cue-block.ts), worked out on each answer since the farm's data can change under it.
 */
export function postHarvestAnswer(record: StoredPostHarvest, farm: FarmIndex) {
  return answerOf(record, mapPostHarvest(record, farm));
}

/** What reading post-harvest treatments takes, without their rules: reads and lists never start them. */
export const postHarvestReads: KindReads = {
  format: POST_HARVEST_FORMAT,
  // The first format: nothing older to read.
  upgrade: (record) => record,
  answer: postHarvestAnswer,
  listFilter: (q: PostHarvestListFilters) => partListFilter(q),
  // It may be registered as far back as the operators' MAX_BACKDATE_DAYS (post-harvest-kind.ts).
  keyIndexDays: (maxBackdateDays) => maxBackdateDays,
};
