import { Outcome } from './job-run';
import { BlockVerdict } from './siex-port';

/** SIEX's verdict on one block, as the worker's SIEX port reports it. */
export type BlockResult = Pick<BlockVerdict, 'ok' | 'errors'>;

/** SIEX's verdicts by section and IdAjena (each kind's IdAjena is its own sequence). */
export function verdictsBySection(results: readonly BlockVerdict[]): Map<string, Map<number, BlockResult>> {
  const bySection = new Map<string, Map<number, BlockResult>>();
  for (const r of results) {
    const { section } = r;
    bySection.set(section, (bySection.get(section) ?? new Map<number, BlockResult>()).set(r.externalId, r));
  }
  return bySection;
}

/**
 * A record's outcome from the verdicts on its blocks (one per crop and variety, shared/records/cue-blocks.ts), those
 * of its kind's section (each kind's IdAjena is its own sequence: one kind's block 5 is not another's): accepted
 * when SIEX accepted every block; otherwise in error with the first error's code and every error's words. A block SIEX
 * said nothing about keeps the record from being counted accepted.
 */
export function recordOutcome(blockIds: readonly number[], results: ReadonlyMap<number, BlockResult>): Outcome {
  const verdicts = blockIds.map((id) => results.get(id));
  if (verdicts.every((v) => v === undefined)) {
    return { state: 'error', code: 'NO_RESULT', message: 'SIEX returned no result for this record' };
  }
  const errors = verdicts.flatMap((v, i) => {
    if (!v) return [{ code: 'NO_RESULT', message: `SIEX returned no result for block ${blockIds[i]}` }];
    if (v.ok) return [];
    return v.errors.length > 0 ? v.errors : [{ code: 'SIEX_ERROR', message: 'rejected by SIEX' }];
  });
  const [first] = errors;
  if (!first) return { state: 'ok' };
  return { state: 'error', code: first.code, message: errors.map((e) => e.message).join('; ') };
}
