import { FarmIndex } from '../farms/farm-index';
import { mapHarvest } from './cue-block';
import { StoredHarvest } from './stored-record';
import { HarvestAnswer, harvestAnswerOf } from './wire-mapper';

/**
 * A harvest as every answer shows it: the stored record with what an export would refuse of it now, judged by the
 * export's own mapping (cue-block.ts). Worked out on each answer: the farm's data (REA code, DGCs) can change under it.
 */
export function harvestAnswer(record: StoredHarvest, farm: FarmIndex): HarvestAnswer {
  const mapped = mapHarvest(record, farm);
  return harvestAnswerOf(
    record,
    mapped.ok ? [] : mapped.missing.map((message) => ({ code: 'MISSING_DATA' as const, message })),
  );
}
