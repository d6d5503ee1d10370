import { FarmIndex } from '../farms/farm-index';
import { BlockIds, legacyBlockIds } from './block-ids';
import { CueBlockBody, CueKindMapping, CueMapResult } from './record-kind';

/** A CUE block under its IdAjena (the field the kind's `cue.idAjena` names). */
type CueBlock = CueBlockBody & { [idAjena: string]: unknown };
export type CueBlocks = { ok: true; blocks: CueBlock[] } | { ok: false; missing: string[] };

/** The IdAjena a block of this kind is sent under. */
export const idAjenaOf = (cue: Pick<CueKindMapping<unknown>, 'idAjena'>, block: CueBlock): number =>
  Number(block[cue.idAjena]);

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
): CueBlocks {
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

/**
 * Each block SIEX holds of a record, as SIEX accepted it, by IdAjena (the body without the IdAjena). A `Borrar` must
 * be a whole block (the CUE schema 3.11.4 requires a block's members whatever `Borrar` says) and name what SIEX holds
 * under that IdAjena, so it is built from this, not from a current block, which may be another crop's: after a record
 * on two crops was amended to one, the deletion of the other carried the kept crop's DGC and area (issue 35, item 4).
 * Empty for a row stored before bodies were kept: those fall back to a current block's body, as before.
 */
export type KeptBodies = Readonly<Record<string, CueBlockBody>>;

/** A record of a kind as a job reads it: the record, its block ids, and the ids (and kept bodies) of its blocks SIEX holds. */
interface BlockSource<Rec> {
  record: Rec;
  recordId: number;
  blockIds: BlockIds | null;
  held: readonly number[];
  kept?: KeptBodies;
}

/**
 * The blocks a record is sent as in a job: `blocksToSend` of its mapped blocks. A deletion of a record SIEX holds sends
 * `Borrar` under exactly the ids SIEX holds, without asking whether the record's crops are still the ones it was stored
 * with: when the REA changed an enclosure's crop since, the ids SIEX holds must still be deleted (issue 23, item 2).
 */
export function recordBlocks<Rec>(
  cue: CueKindMapping<Rec>,
  { record, recordId, blockIds, held, kept = {} }: BlockSource<Rec>,
  farm: FarmIndex,
  deleting: boolean,
): CueBlocks {
  // Every block SIEX holds is known as SIEX took it: the deletion needs nothing of the record as it is now.
  if (deleting && held.length > 0 && held.every((id) => kept[id] !== undefined))
    return { ok: true, blocks: held.map((id) => borrar(cue, kept[id]!, id)) };
  const mapped = cue.map(record, farm);
  if (deleting && held.length > 0) {
    if (!mapped.ok) return mapped;
    const [first] = mapped.blocks;
    if (!first) return { ok: false, missing: ['the record covers no location of the farm'] };
    const keyOf = new Map(Object.entries(blockIds ?? {}).map(([key, id]) => [id, key]));
    const bodyOf = (id: number) => kept[id] ?? (mapped.blocks.find((b) => b.key === keyOf.get(id)) ?? first).body;
    return { ok: true, blocks: held.map((id) => borrar(cue, bodyOf(id), id)) };
  }
  const blocks = withIdAjena(cue, mapped, recordId, blockIds);
  return blocks.ok ? { ok: true, blocks: blocksToSend(cue, blocks.blocks, held, deleting, kept) } : blocks;
}

/** The `Borrar` block of IdAjena `id`, over `body` (any IdAjena or `Borrar` it carries is replaced). */
const borrar = (cue: Pick<CueKindMapping<unknown>, 'idAjena'>, body: CueBlockBody, id: number): CueBlock => ({
  ...body,
  [cue.idAjena]: id,
  Borrar: true,
});

/**
 * The blocks a record is sent as, given what SIEX holds of it. An export sends the record's blocks as they are now,
 * and `Borrar` for each block SIEX holds that the record no longer has (a crop an amendment took away), so SIEX keeps
 * no activity the record does not say. A deletion sends `Borrar` for every block SIEX holds (the current ones when
 * those are not known: a record sent by other means). A `Borrar` block repeats the block as SIEX holds it (`kept`),
 * since the schema wants a whole block and the deletion must name SIEX's block; a row stored before bodies were kept
 * repeats a current block's data instead (its own IdAjena's when it still has it).
 */
export function blocksToSend(
  cue: Pick<CueKindMapping<unknown>, 'idAjena'>,
  current: CueBlock[],
  held: readonly number[],
  deleting: boolean,
  kept: KeptBodies = {},
): CueBlock[] {
  const [first] = current;
  if (!first) return current;
  const byId = new Map(current.map((b) => [idAjenaOf(cue, b), b]));
  const gone = (id: number): CueBlock => borrar(cue, kept[id] ?? byId.get(id) ?? first, id);
  if (deleting) return (held.length > 0 ? held : current.map((b) => idAjenaOf(cue, b))).map(gone);
  return [...current, ...held.filter((id) => !byId.has(id)).map(gone)];
}
