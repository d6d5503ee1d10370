import { Violation } from '../domain/errors';
import { fertilizationViolation } from './errors';
import { FarmIndex, IdcpEntry } from '../farms/farm-index';
import { sigpacCode } from '../farms/sigpac';
import { enclosureCover } from '../farms/treated-area';
import { fourDecimals } from '../rules/area-rules';
import { Fertilization } from './fertilization';
import { LIVESTOCK_MANURE } from './material-kinds';

/**
 * The nitrogen from livestock manure each SIGPAC enclosure received, per campaign, and the limit on it in
 * nitrate-vulnerable zones: 170 kg N/ha a year (Directive 91/676/EEC, Annex III.2; RD 47/2022, the action programmes
 * of vulnerable zones). The limit is on the nitrogen the land receives per hectare, so an enclosure is charged what each
 * record put on it, over its own area: the record's kg N/ha times the hectares it covered there (the declared area of
 * the crops it names, else the enclosure, scaled to its `surface` when it states one: shared/farms/treated-area.ts),
 * divided by the enclosure's area. A vine enclosure of 2.35 ha with 100 kg N/ha on its 1.60 ha of one variety and
 * 71 kg N/ha on its 0.75 ha of another received 213.25 kg N, 90.74 kg N/ha, not 171. A record covering the whole
 * enclosure is charged its kg N/ha, as before, so the rows keep their unit (grams of N per hectare of the enclosure)
 * and rows stored earlier read as they are.
 *
 * Why one row per enclosure (`g~manure-n~<SIGPAC code>`, in the holding's partition, read and written under its ETag
 * in the change's transaction): two registrations on one enclosure serialise on it, so no interleaving stores two
 * applications that together pass the limit. Why grams per hectare as integers: sums and differences stay exact, so
 * 170 kg holds and 170.01 kg fails whatever the order the records came in. Why per campaign totals and not per
 * record: the limit is on the campaign's total, so a back-dated record is judged against the later ones too.
 */
export interface ManureNitrogenRow {
  /** Campaign year → grams of N per hectare from livestock manure. */
  campaigns: Record<string, number>;
}

const MANURE_N_LIMIT_KG_PER_HA = 170;
const LIMIT_GRAMS = MANURE_N_LIMIT_KG_PER_HA * 1000;
/** Campaigns kept per row: the current one and two before it (a correction reaches back at most that far). */
const CAMPAIGNS_KEPT = 3;

export function manureRowKey(entry: IdcpEntry): string {
  return `g~manure-n~${sigpacCode(entry)}`;
}

/** A record and the kg of N per hectare it applied where it applied it (counted only when it is livestock manure). */
export interface ManureContribution {
  fertilization: Fertilization;
  kgPerHa: number;
}

const isManure = (c: ManureContribution) => LIVESTOCK_MANURE.has(c.fertilization.material.code);
const campaignOf = (f: Fertilization) => f.start.slice(0, 4);

/** An enclosure a record covers: its first location (for the error's path), its area and the record's load on it. */
interface EnclosureLoad {
  entry: IdcpEntry;
  index: number;
  /** Hectares of the enclosure, and of it the record covered. */
  area: number;
  covered: number;
  /** Grams of N per hectare of the enclosure (0: not manure). */
  grams: number;
}

/** The enclosures of a record's locations, each once, in the order first named (unknown idcp left out). */
function loadsOf(farm: FarmIndex, c: ManureContribution): EnclosureLoad[] {
  const f = c.fertilization;
  const entries = f.idcp.map((idcp) => farm.byIdcp.get(idcp)).filter((e): e is IdcpEntry => e !== undefined);
  const cover = enclosureCover(entries, f.surface === null ? undefined : Number(f.surface));
  const seen = new Set<string>();
  const out: EnclosureLoad[] = [];
  f.idcp.forEach((idcp, index) => {
    const entry = farm.byIdcp.get(idcp);
    const code = entry && sigpacCode(entry);
    if (!entry || !code || seen.has(code)) return;
    seen.add(code);
    const { hectares, area } = cover.get(code) ?? { hectares: 0, area: 0 };
    // An enclosure of no stated area is charged whole: nothing to spread the nitrogen over.
    const share = area > 0 ? Math.min(1, hectares / area) : 1;
    out.push({ entry, index, area, covered: hectares, grams: isManure(c) ? Math.round(c.kgPerHa * 1000 * share) : 0 });
  });
  return out;
}

/** The rows a change must read and write: the enclosures of a livestock manure record; none for other materials. */
export function manureRowKeys(farm: FarmIndex, f: Fertilization): string[] {
  if (!LIVESTOCK_MANURE.has(f.material.code)) return [];
  return loadsOf(farm, { fertilization: f, kgPerHa: 0 }).map(({ entry }) => manureRowKey(entry));
}

/** The rows once `removed` (an amendment's old version, a deletion) is taken off and `added` put on. */
export function updatedManureRows(
  rows: ReadonlyMap<string, ManureNitrogenRow>,
  farm: FarmIndex,
  removed: ManureContribution | null,
  added: ManureContribution | null,
): Map<string, ManureNitrogenRow> {
  const out = new Map<string, ManureNitrogenRow>();
  const apply = (c: ManureContribution | null, sign: 1 | -1) => {
    if (!c || !isManure(c)) return;
    const year = campaignOf(c.fertilization);
    for (const { entry, grams } of loadsOf(farm, c)) {
      if (grams === 0) continue;
      const key = manureRowKey(entry);
      const row = out.get(key) ?? { campaigns: { ...rows.get(key)?.campaigns } };
      row.campaigns[year] = Math.max(0, (row.campaigns[year] ?? 0) + sign * grams);
      out.set(key, row);
    }
  };
  apply(removed, -1);
  apply(added, 1);
  for (const row of out.values()) {
    const years = Object.keys(row.campaigns).sort().reverse();
    for (const old of years.slice(CAMPAIGNS_KEPT)) delete row.campaigns[old];
  }
  return out;
}

/**
 * On every nitrate-vulnerable enclosure of the record, the campaign's manure nitrogen with this record (and without
 * `own`, the version it replaces) must not pass 170 kg N per hectare of the enclosure: exactly 170 passes.
 */
export function manureLimitRules(
  farm: FarmIndex,
  rows: ReadonlyMap<string, ManureNitrogenRow>,
  record: ManureContribution,
  own: ManureContribution | null,
): Violation[] {
  if (!isManure(record)) return [];
  const year = campaignOf(record.fertilization);
  const ownGrams = new Map(
    own && isManure(own) && campaignOf(own.fertilization) === year
      ? loadsOf(farm, own).map((l) => [manureRowKey(l.entry), l.grams])
      : [],
  );
  const out: Violation[] = [];
  for (const { entry, index, area, covered, grams } of loadsOf(farm, record)) {
    if (!entry.nitrateVulnerable || grams === 0) continue;
    const key = manureRowKey(entry);
    const before = (rows.get(key)?.campaigns[year] ?? 0) - (ownGrams.get(key) ?? 0);
    const total = before + grams;
    if (total > LIMIT_GRAMS)
      out.push(
        fertilizationViolation(
          'NITROGEN_LIMIT_EXCEEDED',
          `body.idcp[${index}]`,
          `livestock manure on SIGPAC enclosure ${sigpacCode(entry)} (${area} ha, nitrate-vulnerable) would total ` +
            `${kg(total)} kg N/ha in the ${year} campaign (${kg(Math.round(total * area))} kg N; ${kg(before)} kg N/ha ` +
            `already, ${kg(grams)} from this record on ${fourDecimals(covered)} ha): the limit is ` +
            `${MANURE_N_LIMIT_KG_PER_HA} kg N/ha of the enclosure (Directive 91/676/EEC, Annex III.2; RD 47/2022)`,
        ),
      );
  }
  return out;
}

const kg = (grams: number) => String(grams / 1000);
