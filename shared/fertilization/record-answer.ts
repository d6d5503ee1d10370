import { FertilizeRecord, FertilizeRecordView } from './wire';
import { FarmIndex } from '../farms/farm-index';
import { mapFertilization } from './cue-block';

/**
 * A fertilization as every answer shows it: the stored record with what an export would refuse of it now, judged by
 * the export's own mapping (cue-block.ts), as treatments answer (shared/phyto/record-answer.ts), so an ERP learns at
 * registration what SIEX will need. Worked out on each answer: the farm's data (REA code, DGCs) can change under it.
 */
export function fertilizationAnswer(record: FertilizeRecord, farm: FarmIndex): FertilizeRecordView {
  const mapped = mapFertilization(record, farm);
  const blockers = mapped.ok ? [] : mapped.missing.map((message) => ({ code: 'MISSING_DATA' as const, message }));
  return { ...record, exportable: blockers.length === 0, exportBlockers: blockers };
}
