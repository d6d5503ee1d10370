import { FarmIndex } from '../farms/farm-index';
import { KindReads } from '../records/kind-entry';
import { answerOf, partListFilter } from '../plant-protection/part-kind';
import { mapFacility } from './cue-block';
import { FACILITY_FORMAT, StoredFacilityTreatment } from './facility';
import { FacilityListFilters } from './wire-mapper';

/**
 * A record as every answer shows it: with what an export would refuse of it now, by the export's own mapping
 * (cue-block.ts), worked out on each answer since the farm's data can change under it.
 */
export function facilityAnswer(record: StoredFacilityTreatment, farm: FarmIndex) {
  return answerOf(record, mapFacility(record, farm));
}

/** What reading store treatments takes, without their rules: reads and lists never start them. */
export const facilityReads: KindReads = {
  format: FACILITY_FORMAT,
  // The first format: nothing older to read.
  upgrade: (record) => record,
  answer: facilityAnswer,
  listFilter: (q: FacilityListFilters) => partListFilter(q),
  // It may be registered as far back as the operators' MAX_BACKDATE_DAYS (facility-kind.ts).
  keyIndexDays: (maxBackdateDays) => maxBackdateDays,
};
