import { z } from 'zod';
import { DEMO_FARM } from '../api/examples';
import { locationFields } from '../api/location-fields';
import { KindView } from '../records/kind-entry';
import { NUTRIENT_INPUTS, NUTRIENT_PLANS } from '../rules/nutrient-balance';
import { campaignStart, farmNutrientBalance } from './nutrient-balance';

/** The nutrient balance look-up: per crop location of a farm campaign, its plan's needs against its fertilizations. */
export const nutrientBalanceQuerySchema = z.object({
  agrifarmId: z.string().min(1).describe('farm URN from the farm lookup'),
  idcp: z
    .string()
    .regex(/^[1-9]\d{0,9}$/, 'idcp from the identifier operation')
    .optional()
    .describe('only this crop location; default every one of the farm campaign'),
});

export type NutrientBalanceQuery = z.infer<typeof nutrientBalanceQuerySchema>;

const amounts = (what: string) =>
  z
    .object({
      n: z.number().describe(`N, kg/ha`),
      p2o5: z.number().describe(`P2O5, kg/ha`),
      k2o: z.number().describe(`K2O, kg/ha`),
    })
    .describe(what);
const perRecord = (what: string) =>
  z
    .number()
    .nullable()
    .describe(
      `${what}, kg/ha of the location; null when the record cannot say it (a dose by volume of a material of no stated density)`,
    );

export const nutrientBalanceSchema = z
  .object({
    ...locationFields,
    campaign: z.number().int().describe("the farm campaign's year"),
    plan: z
      .object({
        record: z.string().describe('the plan URN'),
        date: z.string().describe('DD-MM-YYYY, the day it was drawn up'),
        needs: amounts("the plan's needs"),
      })
      .nullable()
      .describe(
        "the campaign's plan of the location: the last drawn up (of one day, the last registered); null when it has none",
      ),
    applied: amounts(
      "what the campaign's fertilizations brought, the sum of `fertilizations` (a null counts nothing), to the hundredth",
    ),
    fertilizations: z
      .array(
        z.object({
          record: z.string().describe('the fertilization URN'),
          date: z.string().describe('DD-MM-YYYY, its first day'),
          n: z.number().describe('N, kg/ha of the location'),
          p2o5: perRecord('P2O5'),
          k2o: perRecord('K2O'),
        }),
      )
      .describe(
        "the campaign's fertilizations of the location, oldest first, each per hectare of the location: its dose times the material's N total, P2O5 total and K2O contents, times the share of the location it covered when it states a smaller surface",
      ),
    exceeds: z
      .array(z.enum(['n', 'p2o5', 'k2o']))
      .describe('the nutrients whose applied kg/ha pass the plan (equal does not); empty without a plan'),
  })
  .meta({ id: 'NutrientBalance' });

export type NutrientBalance = z.infer<typeof nutrientBalanceSchema>;

/** The worked example: the demo's plan for La Hoya 12-45-2 and the README flow's manure on it. */
const nutrientBalanceExample = {
  query: { agrifarmId: DEMO_FARM, idcp: '2' },
  response: [
    {
      idcp: 2,
      crop: { typecrop: { id: '102', name: 'VIÑA' }, code: 1001, name: 'TEMPRANILLO' },
      campaign: 2026,
      plan: { record: 'urn:ngsi-ld:AgriFertilizationPlan:1', date: '21-11-2026', needs: { n: 60, p2o5: 30, k2o: 90 } },
      applied: { n: 50, p2o5: 30, k2o: 60 },
      fertilizations: [{ record: 'urn:ngsi-ld:AgriFertilize:1', date: '22-11-2026', n: 50, p2o5: 30, k2o: 60 }],
      exceeds: [],
    },
  ] satisfies z.output<typeof nutrientBalanceSchema>[],
};

/**
 * The nutrient balance of the caller's farm campaign (./nutrient-balance.ts): the plans' needs and the fertilizations'
 * nutrients, as the kinds publish them, from the campaign's first day on.
 */
export const nutrientBalanceView: KindView<NutrientBalanceQuery> = {
  summary: "Each crop location's fertilization plan against its fertilizations",
  description:
    'Beyond SIEX: per crop location of the farm campaign (or the one `idcp` names), the needs of its fertilization ' +
    "plan in N, P2O5 and K2O (kg/ha; RD 1051/2022 art. 6) against what the campaign's fertilizations brought it " +
    "(kg/ha of the location: each record's dose times its material's N total, P2O5 total and K2O contents, times the " +
    'share of the location it covered when it states a smaller surface), and `exceeds`, the nutrients applied above ' +
    "the plan. The plan is the location's last one drawn up in the campaign; a location without a plan shows what was " +
    'applied and exceeds nothing. Read from the stored records as they are now, deleted ones left out.',
  query: nutrientBalanceQuerySchema,
  answer: nutrientBalanceSchema,
  answers: 'the crop locations, by idcp',
  errors: ['AGRIFARM_NOT_FOUND', 'IDCP_NOT_FOUND'],
  example: nutrientBalanceExample,
  async view(query, read) {
    const since = campaignStart(read.farm.meta.year);
    const [plans, inputs] = await Promise.all([read.facts(NUTRIENT_PLANS, since), read.facts(NUTRIENT_INPUTS, since)]);
    return farmNutrientBalance(plans, inputs, read.farm, query.idcp);
  },
};
