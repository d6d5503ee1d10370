import { FarmIndex } from '../farms/farm-index';
import { mapFertilization } from './cue-block';
import { StoredFertilization } from './stored-record';
import { FertilizationAnswer, fertilizationView } from './wire-mapper';

/**
 * A fertilization as every answer shows it: the stored record with what an export would refuse of it now, judged by
 * the export's own mapping (cue-block.ts), so an ERP learns at registration what SIEX will need. Worked out on each
 * answer: the farm's data (REA code, DGCs) can change under it.
 */
export function fertilizationAnswer(record: StoredFertilization, farm: FarmIndex): FertilizationAnswer {
  const mapped = mapFertilization(record, farm);
  return fertilizationView(
    record,
    mapped.ok ? [] : mapped.missing.map((message) => ({ code: 'MISSING_DATA' as const, message })),
  );
}
