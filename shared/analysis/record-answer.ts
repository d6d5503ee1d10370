import { FarmIndex } from '../farms/farm-index';
import { mapAnalysis } from './cue-block';
import { StoredAnalysis } from './stored-record';
import { AnalysisAnswer, analysisView } from './wire-mapper';

/**
 * An analysis as every answer shows it: the stored record with what an export would refuse of it now, judged by the
 * export's own mapping (cue-block.ts), so an ERP learns at registration what SIEX will need. Worked out on each
 * answer: the farm's data (REA code, DGCs) can change under it.
 */
export function analysisAnswer(record: StoredAnalysis, farm: FarmIndex): AnalysisAnswer {
  const mapped = mapAnalysis(record, farm);
  return analysisView(
    record,
    mapped.ok ? [] : mapped.missing.map((message) => ({ code: 'MISSING_DATA' as const, message })),
  );
}
