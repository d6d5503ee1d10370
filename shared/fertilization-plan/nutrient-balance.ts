import { DateTime } from 'luxon';
import { ZONE } from '../domain/dates';
import { DomainError, violation } from '../domain/errors';
import { FarmIndex } from '../farms/farm-index';
import {
  Nutrient,
  NutrientInput,
  NUTRIENTS,
  nutrientInputSchema,
  PlanNeed,
  planNeedSchema,
} from '../rules/nutrient-balance';

/**
 * The nutrient balance of a crop location: what its fertilization plan needs of N, P2O5 and K2O against what the
 * campaign's fertilizations brought it, and which nutrients the fertilizations pass the plan in, from the facts the
 * plans and the fertilizations publish (shared/rules/nutrient-balance.ts).
 */
type Amounts = Record<Nutrient, number>;

/** One location's balance: its plan (the latest, when it has several), what was applied, and what passes the plan. */
export interface LocationBalance {
  idcp: number;
  plan: { record: string; date: string; needs: Amounts } | null;
  applied: Amounts;
  fertilizations: { record: string; date: string; n: number; p2o5: number | null; k2o: number | null }[];
  /** The nutrients whose applied kg/ha pass the plan's need (none without a plan). */
  exceeds: Nutrient[];
}

/** kg/ha to the hundredth, as the plan and the CUE write them. */
const hundredths = (x: number) => Math.round(x * 100) / 100;
const byNumber = (urn: string) => Number(urn.slice(urn.lastIndexOf(':') + 1));

/** The plan that rules a location: the last drawn up, and of one day the last registered (a revision replaces it). */
function latest(plans: readonly PlanNeed[]): PlanNeed | undefined {
  return [...plans].sort((a, b) => a.date.localeCompare(b.date) || byNumber(a.record) - byNumber(b.record)).at(-1);
}

/**
 * The balance of each location `idcps` of the farm campaign `farm`, from the facts of every campaign (those of other
 * campaigns are left out): applied is the sum of the fertilizations' kg/ha (a nutrient a record cannot say counts
 * nothing), rounded to the hundredth; a nutrient exceeds the plan when applied is above the need (equal does not).
 * Fertilizations oldest first.
 */
export function nutrientBalance(
  plans: readonly PlanNeed[],
  inputs: readonly NutrientInput[],
  farm: number,
  idcps: readonly number[],
): LocationBalance[] {
  return idcps.map((idcp) => {
    const here = <T extends { farm: number; idcp: number }>(f: T) => f.farm === farm && f.idcp === idcp;
    const plan = latest(plans.filter(here));
    const lines = inputs
      .filter(here)
      .sort((a, b) => a.date.localeCompare(b.date) || byNumber(a.record) - byNumber(b.record));
    const sum = (k: Nutrient) => hundredths(lines.reduce((t, l) => t + (l[k] ?? 0), 0));
    const applied: Amounts = { n: sum('n'), p2o5: sum('p2o5'), k2o: sum('k2o') };
    return {
      idcp,
      plan: plan ? { record: plan.record, date: plan.date, needs: plan.needs } : null,
      applied,
      fertilizations: lines.map((l) => ({
        record: l.record,
        date: l.date,
        n: hundredths(l.n),
        p2o5: l.p2o5 === null ? null : hundredths(l.p2o5),
        k2o: l.k2o === null ? null : hundredths(l.k2o),
      })),
      exceeds: plan ? NUTRIENTS.filter((k) => applied[k] > plan.needs[k]) : [],
    };
  });
}

/** The Madrid day the balance reads facts from: the first of the farm campaign's year (its records' days are in it). */
export function campaignStart(year: number): DateTime {
  return DateTime.fromObject({ year, month: 1, day: 1 }, { zone: ZONE });
}

/**
 * The balance of a farm campaign's crop locations as the API answers it: every location in idcp order, or the one
 * `idcp` names (404 IDCP_NOT_FOUND when it is not the campaign's), each with its crop and campaign, days DD-MM-YYYY.
 */
export function farmNutrientBalance(
  plans: readonly unknown[],
  inputs: readonly unknown[],
  farm: FarmIndex,
  idcp: string | undefined,
): NutrientBalanceView[] {
  if (idcp !== undefined && !farm.byIdcp.has(Number(idcp)))
    throw new DomainError('The query parameters are not valid.', [
      violation(
        'IDCP_NOT_FOUND',
        'query.idcp',
        `idcp ${idcp} is not a crop location of this farm; regenerate it with listidcp`,
      ),
    ]);
  const idcps = idcp !== undefined ? [Number(idcp)] : [...farm.byIdcp.keys()].sort((a, b) => a - b);
  const dmy = (iso: string) => `${iso.slice(8, 10)}-${iso.slice(5, 7)}-${iso.slice(0, 4)}`;
  return nutrientBalance(
    plans.map((f) => planNeedSchema.parse(f)),
    inputs.map((f) => nutrientInputSchema.parse(f)),
    farm.meta.farmId,
    idcps,
  ).map((b) => {
    const crop = farm.cropOf(farm.byIdcp.get(b.idcp)!);
    return {
      idcp: b.idcp,
      crop: { typecrop: { id: crop.typecropId, name: crop.typecropName }, code: crop.code, name: crop.name },
      campaign: farm.meta.year,
      plan: b.plan ? { ...b.plan, date: dmy(b.plan.date) } : null,
      applied: b.applied,
      fertilizations: b.fertilizations.map((l) => ({ ...l, date: dmy(l.date) })),
      exceeds: b.exceeds,
    };
  });
}

/** One crop location's balance as the API answers it. */
export interface NutrientBalanceView extends Omit<LocationBalance, 'plan'> {
  crop: { typecrop: { id: string; name: string }; code: number; name: string };
  campaign: number;
  plan: LocationBalance['plan'];
}
