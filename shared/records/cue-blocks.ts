import { BlockIds, legacyBlockIds } from './block-ids';
import { CueBlockBody, CueKindMapping, CueMapResult } from './record-kind';

type CueBlock = CueBlockBody & { [idAjena: string]: unknown };

/**
 * A kind's mapped blocks, each under the IdAjena its record keeps for its block key (`blockIds`; null: a record stored
 * before they were kept, read as `legacyBlockIds`). A block key the record did not cover when it was stored (the farm
 * data changed since) has no id, and none is made up here: the record is not sent, and amending it allocates one.
 */
export function withIdAjena<Rec>(
  cue: CueKindMapping<Rec>,
  mapped: CueMapResult,
  recordId: number,
  blockIds: BlockIds | null,
): { ok: true; blocks: CueBlock[] } | { ok: false; missing: string[] } {
  if (!mapped.ok) return mapped;
  const ids =
    blockIds ??
    legacyBlockIds(
      recordId,
      mapped.blocks.map((b) => b.key),
    );
  const unknown = mapped.blocks.filter((b) => ids[b.key] === undefined).map((b) => b.key);
  if (unknown.length > 0)
    return {
      ok: false,
      missing: unknown.map(
        (key) =>
          `${key} was not among the record's blocks when it was stored (the farm data changed): amend the record`,
      ),
    };
  return { ok: true, blocks: mapped.blocks.map((b) => ({ [cue.idAjena]: ids[b.key], ...b.body })) };
}
