import { DateTime } from 'luxon';
import { ReferenceData } from '../catalog/reference-data';
import { NOT_APPLICABLE_DAYS, ProductUse, scopeOf } from '../catalog/product';
import { formatDate, parseDate, parseDateTime, ZONE } from '../domain/dates';
import { DomainError, violation } from '../domain/errors';
import { FarmIndex } from '../farms/farm-index';
import { sigpacCode } from '../farms/sigpac';
import { decidingHold, HarvestHold } from '../rules/harvest-holds';
import { seclimitOf } from './record-view';
import { StoredInfection } from '../plant-protection/stored-part';
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

interface Pass {
  code: string;
  name: string;
  /** The interval the record states for the product, over all its crops. */
  seclimit: string;
  infection: StoredInfection | null;
}

/**
 * What of a treatment its harvest holds read (kind-reads.ts keeps it on the record row, so that a harvest on a holding
 * of thousands of treatments reads this and not every record): its URN, day and locations, and the products of its
 * pass with each one's interval as the record states it. A record keeps the longest interval of the pass
 * (record-view.ts) and each mixed product its own, not the main product's alone: when a mixed product's interval is
 * the record's, that product sets it; otherwise only the main product can have. A measure (no product) holds no
 * harvest. The register's interval on each crop is looked up when the holds are read, as the register stands then.
 */
export interface HoldExcerpt {
  record: string;
  dateApplication: string;
  idcp: string[];
  passes: Pass[];
}

/** The version of HoldExcerpt's shape, to change with it: rows kept under another are read whole again. */
export const HOLD_EXCERPT_VERSION = 1;

export function holdExcerpt(record: StoredTreatment): HoldExcerpt {
  return {
    record: record.id,
    dateApplication: record.dateApplication,
    idcp: record.idcp,
    passes: passProducts(record),
  };
}

function passProducts(record: StoredTreatment): Pass[] {
  const product = (p: NonNullable<StoredTreatment['subtype']>) => ({ code: p.subtype.code, name: p.name });
  const mix = (record.mix ?? []).map((m) => ({
    ...product(m.subtype),
    seclimit: m.seclimit,
    infection: m.infection ?? record.infection,
  }));
  if (!record.subtype) return [];
  return mix.some((m) => m.seclimit === record.seclimit)
    ? mix
    : [{ ...product(record.subtype), seclimit: record.seclimit, infection: record.infection }, ...mix];
}

/**
 * The interval of a product on one crop of the record: the field uses of the register on that crop (against the
 * record's infection, when a use names it), so that a record on a 3-day tomato and a 10-day vine holds each for its
 * own; the record's own figure when the register has no such use now (a product withdrawn since).
 */
function intervalOn(pass: Pass, crop: string, reference: ReferenceData | undefined): string {
  const uses: readonly ProductUse[] = reference?.products.get(pass.code)?.uses ?? [];
  const onCrop = uses.filter((u) => scopeOf(u) === 'field' && u.cropTypeIds.includes(crop));
  const forPest = pass.infection ? onCrop.filter((u) => String(u.pest.code) === pass.infection?.id) : [];
  const chosen = forPest.length > 0 ? forPest : onCrop;
  return chosen.length > 0 ? seclimitOf(chosen) : pass.seclimit;
}

/**
 * The harvest holds a stored treatment states (shared/rules/harvest-holds.ts), from its excerpt: one per product with an
 * interval in days ("NP", the register's NO PROCEDE, and an interval no use states hold nothing) and per enclosure and
 * crop of its locations in the farm campaign it is of. The pre-harvest interval is set by the product's authorisation
 * (Reglamento (CE) 1107/2009, art. 31) per use, as the official register states it.
 */
export function treatmentHolds(record: HoldExcerpt, farm: FarmIndex, reference?: ReferenceData): HarvestHold[] {
  const at = parseDateTime(record.dateApplication);
  if (!at) return [];
  const applied = at.setZone(ZONE).toISODate()!;
  const holds: HarvestHold[] = [];
  for (const idcp of record.idcp) {
    const entry = farm.byIdcp.get(Number(idcp));
    if (!entry) continue;
    const crop = farm.cropOf(entry).typecropId;
    for (const pass of record.passes) {
      const days = intervalOn(pass, crop, reference);
      if (days === NOT_APPLICABLE_DAYS || !/^\d+$/.test(days)) continue;
      holds.push({
        enclosure: sigpacCode(entry),
        crop,
        record: record.record,
        product: { code: pass.code, name: pass.name },
        applied,
        days: Number(days),
      });
    }
  }
  return holds;
}

/**
 * When each crop location of the farm campaign may be harvested, on the Madrid day `day`: the latest day any hold of
 * its enclosure and crop ends (shared/rules/harvest-holds.ts, the one computation harvests are judged by too), over
 * the holds of applications on or before that day, in any campaign. Locations in idcp order.
 */
export function safeHarvestDays(holds: readonly HarvestHold[], farm: FarmIndex, day: DateTime): SafeHarvestDay[] {
  const today = day.setZone(ZONE).toISODate()!;
  const dmy = (iso: string) => formatDate(DateTime.fromISO(iso, { zone: ZONE }));
  return [...farm.byIdcp.values()]
    .sort((a, b) => a.idcp - b.idcp)
    .map((entry) => {
      const crop = farm.cropOf(entry);
      const deciding = decidingHold(holds, sigpacCode(entry), crop.typecropId, today);
      return {
        idcp: entry.idcp,
        crop: { typecrop: { id: crop.typecropId, name: crop.typecropName }, code: crop.code, name: crop.name },
        earliestHarvest: deciding ? dmy(deciding.safeDay) : null,
        safeOn: !deciding || today >= deciding.safeDay,
        setBy: deciding
          ? {
              record: deciding.hold.record,
              product: deciding.hold.product,
              applied: dmy(deciding.hold.applied),
              seclimit: String(deciding.hold.days),
            }
          : null,
      };
    });
}

/** The safe-harvest view over stored treatments of this farm campaign (their own intervals, no register at hand). */
export function safeHarvest(records: readonly StoredTreatment[], farm: FarmIndex, day: DateTime): SafeHarvestDay[] {
  return safeHarvestDays(
    records.flatMap((r) => treatmentHolds(holdExcerpt(r), farm)),
    farm,
    day,
  );
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
