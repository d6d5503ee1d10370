import type { DateTime } from 'luxon';
import { MAX_EXPORT_RECORDS } from '../domain/export-limits';
import { FarmIndex } from '../farms/farm-index';
import { claimOf } from '../records/export-state';
import { recordIdOf } from '../records/record-keys';
import { RecordPointer } from '../records/record-rows';
import { blockersOf } from './export-blockers';
import { ExportKind, ExportKinds } from './export-kinds';
import { RecordRef } from './record-ref';

interface PendingDeps {
  kind: ExportKind;
  /** The jobs among those that claimed these records that still hold them (export-service.ts, `jobsHolding`). */
  holding: (pointers: RecordPointer[], now: DateTime) => Promise<Set<number>>;
}

/** What `pending=1` exports of a kind: the records chosen, oldest application first, and whether others still wait. */
interface PendingSelection {
  ids: number[];
  more: boolean;
}

/**
 * The farm campaign's records of a kind an export would take now and SIEX would take whole, oldest application first,
 * at most `max`: not exported (never, or amended since), not held by an unfinished job, not of unknown outcome, and
 * exportable (its CUE blocks map, by the very check the export worker makes: a record the export would settle
 * MISSING_DATA stays out, or it would be chosen again by every pending export, forever).
 */
export async function pendingRecords(
  { kind, holding: jobsHolding }: PendingDeps,
  farm: FarmIndex,
  now: DateTime,
  max = MAX_EXPORT_RECORDS,
): Promise<PendingSelection> {
  const keys = (await kind.keys.keys(farm.meta)).reverse();
  const pointers = await kind.store.readPointers(farm.meta, keys.map(recordIdOf));
  const unsent = [...pointers.values()].filter(
    (p) => p.exportState.kind === 'unsent' || p.exportState.kind === 'changed',
  );
  const holding = await jobsHolding(unsent, now);
  const free = unsent.filter((p) => {
    const claim = claimOf(p.exportState);
    return !(claim && holding.has(claim.jobId));
  });
  const blockers = await blockersOf(kind, farm, free);
  const order = new Map(keys.map((k, i) => [recordIdOf(k), i]));
  const ready = free
    .filter((p) => blockers.get(p.id)?.length === 0)
    .map((p) => p.id)
    .sort((a, b) => order.get(a)! - order.get(b)!);
  return { ids: ready.slice(0, max), more: ready.length > max };
}

/**
 * What `pending=1` exports: every kind's pending records, kind by kind in the registry's order, each oldest
 * application first, at most `max` in all; `more` when any record still waits beyond.
 */
export async function pendingOfEveryKind(
  kinds: ExportKinds,
  holding: PendingDeps['holding'],
  farm: FarmIndex,
  now: DateTime,
  max = MAX_EXPORT_RECORDS,
): Promise<{ records: RecordRef[]; more: boolean }> {
  const records: RecordRef[] = [];
  let more = false;
  for (const kind of kinds.all()) {
    const chosen = await pendingRecords({ kind, holding }, farm, now, max - records.length);
    records.push(...chosen.ids.map((id) => ({ type: kind.urnType, id })));
    more ||= chosen.more;
  }
  return { records, more };
}
