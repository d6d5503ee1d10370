import { parseUrn } from '../domain/urn';
import { FarmIndex } from '../farms/farm-index';
import { BlockIds } from '../records/block-ids';
import { exportBlockers } from './cue-block';
import { StoredTreatment } from './stored-record';
import { TreatmentAnswer, treatmentView } from './wire-mapper';

/**
 * A record as answered: the stored record with what an export would refuse of it now, judged by the export's own
 * check (cue-block.ts) with the IdAjena the record keeps for its blocks (`blockIds`), so an ERP learns at registration
 * what SIEX will need, not from a failed job.
 */
export function recordAnswer(record: StoredTreatment, farm: FarmIndex, blockIds: BlockIds | null): TreatmentAnswer {
  return treatmentView(record, exportBlockers(record, parseUrn('AgriPhytosanitary', record.id) ?? 0, farm, blockIds));
}
