import { FarmIndex } from '../farms/farm-index';
import { mapIrrigation } from './cue-block';
import { StoredIrrigation } from './stored-record';
import { IrrigationAnswer, irrigationView } from './wire-mapper';

/**
 * An irrigation as every answer shows it: the stored record with what an export would refuse of it now, judged by the
 * export's own mapping (cue-block.ts), so an ERP learns at registration what SIEX will need. Worked out on each
 * answer: the farm's data (REA code, DGCs) can change under it.
 */
export function irrigationAnswer(record: StoredIrrigation, farm: FarmIndex): IrrigationAnswer {
  const mapped = mapIrrigation(record, farm);
  return irrigationView(
    record,
    mapped.ok ? [] : mapped.missing.map((message) => ({ code: 'MISSING_DATA' as const, message })),
  );
}
