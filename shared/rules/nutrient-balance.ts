import { z } from 'zod';

/**
 * The facts a crop location's nutrient balance is made of: what a plan needs of N, P2O5 and K2O on the location
 * (RD 1051/2022 art. 6, in kg/ha) and what each record of nutrients brought it (the nutrients of the material it
 * states, RD 1051/2022 art. 5 and Anexo III). Art. 6 has what is applied follow the plan's needs; no public notebook
 * shows the ERP the two side by side.
 *
 * Two topics of facts (shared/records/record-facts.ts) carry them between kinds without either naming the other: a
 * plan publishes its needs on each of its locations, a record that brings nutrients what it brought each of its
 * locations. Both are per hectare of the location and name it by its farm campaign (`farm`) and idcp: the balance,
 * made by the view of the kind that plans, is per location and campaign.
 */
export const NUTRIENT_PLANS = 'nutrient-plans';
export const NUTRIENT_INPUTS = 'nutrient-inputs';

const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const kg = z.number().nonnegative();

export const planNeedSchema = z.strictObject({
  /** The farm campaign (its farmId) whose idcp the location is. */
  farm: z.number().int(),
  idcp: z.number().int(),
  /** The plan's URN and the ISO day it was drawn up. */
  record: z.string().min(1),
  date: isoDay,
  needs: z.strictObject({ n: kg, p2o5: kg, k2o: kg }),
});
export type PlanNeed = z.infer<typeof planNeedSchema>;

export const nutrientInputSchema = z.strictObject({
  farm: z.number().int(),
  idcp: z.number().int(),
  /** The URN of the record that brought them, and its first ISO day. */
  record: z.string().min(1),
  date: isoDay,
  /**
   * kg/ha of the location; null where the record's material cannot say it (a dose by volume of a material of no
   * stated density), which the balance shows and does not add.
   */
  n: kg,
  p2o5: kg.nullable(),
  k2o: kg.nullable(),
});
export type NutrientInput = z.infer<typeof nutrientInputSchema>;

export const NUTRIENTS = ['n', 'p2o5', 'k2o'] as const;
export type Nutrient = (typeof NUTRIENTS)[number];
