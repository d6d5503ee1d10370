import { Violation, violation } from '../domain/errors';
import { FarmIndex, IdcpEntry } from '../farms/farm-index';
import { sigpacCode } from '../farms/sigpac';
import { Fertilization } from './fertilization';
import { LIVESTOCK_MANURE } from './material-kinds';

/**
 * The nitrogen from livestock manure each SIGPAC enclosure received, per campaign, and the limit on it in
 * nitrate-vulnerable zones: 170 kg N/ha a year (Directive 91/676/EEC, Annex III.2; RD 47/2022, the action programmes
 * of vulnerable zones). The limit is per hectare of land, so every enclosure of a record receives the record's kg N/ha
 * (an enclosure named under two crops once).
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

/** A record's share of the rows: grams of N per ha from livestock manure, in its campaign (0: not manure). */
export interface ManureContribution {
  fertilization: Fertilization;
  kgPerHa: number;
}

const gramsOf = (c: ManureContribution) =>
  LIVESTOCK_MANURE.has(c.fertilization.material.code) ? Math.round(c.kgPerHa * 1000) : 0;
const campaignOf = (f: Fertilization) => f.start.slice(0, 4);

/** The enclosures of a record's locations, each once, in the order first named (unknown idcp left out). */
function enclosuresOf(farm: FarmIndex, f: Fertilization): { entry: IdcpEntry; index: number }[] {
  const seen = new Set<string>();
  const out: { entry: IdcpEntry; index: number }[] = [];
  f.idcp.forEach((idcp, index) => {
    const entry = farm.byIdcp.get(idcp);
    if (!entry || seen.has(sigpacCode(entry))) return;
    seen.add(sigpacCode(entry));
    out.push({ entry, index });
  });
  return out;
}

/** The rows a change must read and write: the enclosures of a livestock manure record; none for other materials. */
export function manureRowKeys(farm: FarmIndex, f: Fertilization): string[] {
  if (!LIVESTOCK_MANURE.has(f.material.code)) return [];
  return enclosuresOf(farm, f).map(({ entry }) => manureRowKey(entry));
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
    const grams = c ? gramsOf(c) : 0;
    if (!c || grams === 0) return;
    const year = campaignOf(c.fertilization);
    for (const { entry } of enclosuresOf(farm, c.fertilization)) {
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
 * `own`, the version it replaces) must not pass 170 kg N/ha: exactly 170 passes.
 */
export function manureLimitRules(
  farm: FarmIndex,
  rows: ReadonlyMap<string, ManureNitrogenRow>,
  record: ManureContribution,
  own: ManureContribution | null,
): Violation[] {
  const grams = gramsOf(record);
  if (grams === 0) return [];
  const year = campaignOf(record.fertilization);
  const ownKeys =
    own && campaignOf(own.fertilization) === year
      ? new Set(enclosuresOf(farm, own.fertilization).map(({ entry }) => manureRowKey(entry)))
      : new Set<string>();
  const ownGrams = own ? gramsOf(own) : 0;
  const out: Violation[] = [];
  for (const { entry, index } of enclosuresOf(farm, record.fertilization)) {
    if (!entry.nitrateVulnerable) continue;
    const key = manureRowKey(entry);
    const before = (rows.get(key)?.campaigns[year] ?? 0) - (ownKeys.has(key) ? ownGrams : 0);
    const total = before + grams;
    if (total > LIMIT_GRAMS)
      out.push(
        violation(
          'NITROGEN_LIMIT_EXCEEDED',
          `body.idcp[${index}]`,
          `livestock manure on SIGPAC enclosure ${sigpacCode(entry)}, in a nitrate-vulnerable zone, would total ` +
            `${kg(total)} kg N/ha in the ${year} campaign (${kg(before)} already, ${kg(grams)} in this record): ` +
            `the limit is ${MANURE_N_LIMIT_KG_PER_HA} kg N/ha (Directive 91/676/EEC, Annex III.2; RD 47/2022)`,
        ),
      );
  }
  return out;
}

const kg = (grams: number) => String(grams / 1000);
