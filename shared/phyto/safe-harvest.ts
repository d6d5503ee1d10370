import { DateTime } from 'luxon';
import { formatDate, parseDate, parseDateTime, ZONE } from '../domain/dates';
import { DomainError, violation } from '../domain/errors';
import { FarmIndex } from '../farms/farm-index';
import { StoredTreatment } from './stored-record';

/** When a crop location may be harvested, and the treatment that says so. */
export interface SafeHarvestDay {
  idcp: number;
  crop: { typecrop: { id: string; name: string }; code: number; name: string };
  /** DD-MM-YYYY; null when no treatment limits the harvest. */
  earliestHarvest: string | null;
  safeOn: boolean;
  setBy: { record: string; product: { code: string; name: string }; applied: string; seclimit: string } | null;
}

interface Limit {
  setBy: NonNullable<SafeHarvestDay['setBy']>;
  endsOn: DateTime;
}

/**
 * The products of a pass with each one's safety interval. A record keeps the longest interval of the pass
 * (record-view.ts) and each mixed product its own, not the main product's alone: when a mixed product's interval is
 * the record's, that product sets it; otherwise only the main product can have.
 */
function productIntervals(record: StoredTreatment): { code: string; name: string; seclimit: string }[] {
  const product = (p: StoredTreatment['subtype']) => ({ code: p.subtype.code, name: p.name });
  const mix = (record.mix ?? []).map((m) => ({ ...product(m.subtype), seclimit: m.seclimit }));
  return mix.some((m) => m.seclimit === record.seclimit)
    ? mix
    : [{ ...product(record.subtype), seclimit: record.seclimit }, ...mix];
}

/**
 * When each crop location of the farm campaign may be harvested: the pre-harvest interval (plazo de seguridad, set by
 * the product's authorisation, Reglamento (CE) 1107/2009 art. 31, as the official register states it per use) runs in
 * calendar days from the application day, so a location
 * is safe from the last day any stored treatment's interval ends. "NP" (the register's NO PROCEDE) and an interval no
 * use states limit nothing. Locations in idcp order; `day` is a Madrid day.
 */
export function safeHarvest(records: readonly StoredTreatment[], farm: FarmIndex, day: DateTime): SafeHarvestDay[] {
  const latest = new Map<number, Limit>();
  for (const record of records) {
    const at = parseDateTime(record.dateApplication);
    if (!at) continue;
    const applied = at.setZone(ZONE).startOf('day');
    for (const p of productIntervals(record)) {
      if (!/^\d+$/.test(p.seclimit)) continue;
      const endsOn = applied.plus({ days: Number(p.seclimit) });
      const limit: Limit = {
        setBy: {
          record: record.id,
          product: { code: p.code, name: p.name },
          applied: formatDate(applied),
          seclimit: p.seclimit,
        },
        endsOn,
      };
      for (const idcp of record.idcp) {
        const known = latest.get(Number(idcp));
        if (!known || endsOn > known.endsOn) latest.set(Number(idcp), limit);
      }
    }
  }
  const today = day.setZone(ZONE).startOf('day');
  return [...farm.byIdcp.values()]
    .sort((a, b) => a.idcp - b.idcp)
    .map((entry) => {
      const crop = farm.cropOf(entry);
      const limit = latest.get(entry.idcp);
      return {
        idcp: entry.idcp,
        crop: { typecrop: { id: crop.typecropId, name: crop.typecropName }, code: crop.code, name: crop.name },
        earliestHarvest: limit ? formatDate(limit.endsOn) : null,
        safeOn: !limit || today >= limit.endsOn,
        setBy: limit?.setBy ?? null,
      };
    });
}

/** The day asked about: `date` (DD-MM-YYYY, a real day, else 400 INVALID_DATE), or today in Madrid. */
export function harvestDay(date: string | undefined, now: DateTime): DateTime {
  if (date === undefined) return now.setZone(ZONE);
  const day = parseDate(date);
  if (!day)
    throw new DomainError('The query parameters are not valid.', [
      violation('INVALID_DATE', 'query.date', 'expected a real day DD-MM-YYYY'),
    ]);
  return day;
}
