import { z } from 'zod';
import { Claim, ExportState, keptBodies, KnownExportState, SiexBodies } from './export-state';

/**
 * The most characters the kept bodies take on the pointer row: Azure Tables holds at most 64 KiB in a string property
 * (32 Ki UTF-16 characters) and 1 MiB in an entity. Bodies past it are not kept, and their `Borrar` falls back to a
 * current block's body, as for rows stored before bodies were kept.
 */
export const MAX_SIEX_BODIES_CHARS = 30_000;

/**
 * How a record's export state is stored on its id pointer row: seven columns, as rows have always carried them, so a
 * claim, an outcome marked unknown or cleared, and an acceptance each stay one write (two of them blind merges of
 * one column, with no read before: `outcomeUnknownJob`). `0` and `''` mean "none" here, and only here.
 *
 * Rows written before a column existed read as they meant: without `everExported`, `exported=1` meant SIEX was told
 * (the gateway knowing no blocks of it: sent elsewhere, never sent again); without `siexBlocks`, SIEX holds no block
 * the gateway knows; without the claim columns, no job took the record.
 */
const stateColumns = z.object({
  exported: z.enum(['0', '1']),
  everExported: z.enum(['0', '1']).optional(),
  siexBlocks: z
    .string()
    .default('[]')
    .transform((text) => z.array(z.number().int().positive()).parse(JSON.parse(text))),
  siexBodies: z
    .string()
    .default('{}')
    .transform((text) => z.record(z.string(), z.record(z.string(), z.unknown())).parse(JSON.parse(text))),
  jobId: z.coerce.number().int().default(0),
  claimedAt: z.coerce.number().default(0),
  claimedBy: z.string().default(''),
  outcomeUnknownJob: z.coerce.number().int().default(0),
});

/** Their names: what a read of a pointer's export state alone selects. */
export const exportStateColumnNames = Object.keys(stateColumns.shape);

export const exportStateColumns = stateColumns.transform((c): ExportState => {
  const claim: Claim | null = c.jobId > 0 ? { jobId: c.jobId, at: c.claimedAt, by: c.claimedBy } : null;
  const told = (c.everExported ?? c.exported) === '1';
  let known: KnownExportState;
  if (c.siexBlocks.length > 0)
    known = {
      kind: c.exported === '1' ? 'exported' : 'changed',
      claim,
      siexBlocks: c.siexBlocks,
      ...keptBodies(c.siexBodies),
    };
  else if (told) return { kind: 'sent-elsewhere' };
  else known = { kind: 'unsent', claim };
  return c.outcomeUnknownJob > 0 ? { kind: 'outcome-unknown', job: c.outcomeUnknownJob, known } : known;
});

/** The columns of an export state, every one of them (a pointer row replaced or merged holds no stale column). */
export function exportStateRow(state: ExportState): Record<string, string | number> {
  if (state.kind === 'sent-elsewhere') return { ...flags('1', '1', []), ...claimRow(null), outcomeUnknownJob: 0 };
  const known = state.kind === 'outcome-unknown' ? state.known : state;
  const outcomeUnknownJob = state.kind === 'outcome-unknown' ? state.job : 0;
  const columns =
    known.kind === 'unsent'
      ? flags('0', '0', [])
      : {
          ...flags(known.kind === 'exported' ? '1' : '0', '1', known.siexBlocks),
          ...(known.siexBodies ? bodiesRow(known.siexBodies) : {}),
        };
  return { ...columns, ...claimRow(known.claim), outcomeUnknownJob };
}

function flags(exported: '0' | '1', everExported: '0' | '1', siexBlocks: number[]) {
  return { exported, everExported, siexBlocks: JSON.stringify(siexBlocks) };
}

/**
 * The kept bodies, written by every acceptance (so a merge leaves none stale beside the blocks it names). A state
 * without them writes no such column, as rows always were: one read from a row that has it writes it back unchanged
 * (an amendment), and one where SIEX holds no block never reads it (no `siexBlocks`).
 */
function bodiesRow(siexBodies: SiexBodies) {
  const text = JSON.stringify(siexBodies);
  return { siexBodies: text.length <= MAX_SIEX_BODIES_CHARS ? text : '{}' };
}

function claimRow(claim: Claim | null) {
  return { jobId: claim?.jobId ?? 0, claimedAt: claim?.at ?? 0, claimedBy: claim?.by ?? '' };
}
