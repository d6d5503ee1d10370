import { z } from 'zod';
import { daySchema } from '../domain/day-schema';
import { listPeriod, recordListFilters } from '../api/query-params';
import { exportabilityFields, roundTripFields, idcpList, READ_ONLY, recordStamps } from '../api/record-fields';
import { mergePatchSchemaOf } from '../api/record-path-and-patch';

/**
 * The fertilization plan (`AgriFertilizationPlan`, RD 1051/2022 arts. 5.a and 6): the request the ERP sends, in the
 * seed's conventions (objects with `type`, `id` and `name`; days DD-MM-YYYY; `idcp` from listidcp). The bounds of its
 * figures are rules of the kind (quantity-rules.ts: 422 with the limit), not of the wire.
 */
const siexId = z.string().max(10).regex(/^\d+$/, 'SIEX code as text');
const kgPerHa = (what: string) => z.number().nonnegative().finite().describe(`${what}, kg/ha`);

const needsSchema = z
  .strictObject({
    n: kgPerHa('nitrogen (N)'),
    p2o5: kgPerHa('phosphorus as P2O5'),
    k2o: kgPerHa('potassium as K2O'),
  })
  .describe("the crop's needs in fertilizer units (SIEX NecesidadUFN, NecesidadUFP2O5, NecesidadUFK2O)")
  .meta({ id: 'NutrientNeeds' });

const requestFields = {
  type: z.literal('AgriFertilizationPlan'),
  date: daySchema.describe('the day the plan was drawn up, DD-MM-YYYY (Madrid; SIEX FechaGeneracion)'),
  idcp: idcpList().describe('the crop locations the plan is for'),
  needs: needsSchema,
  yieldTarget: z.number().positive().finite().describe('the yield the plan aims at, kg/ha (SIEX ObjetivoProduccion)'),
  previousCrop: z
    .strictObject({ type: z.literal('TypeCrop'), id: siexId, name: z.string().max(200).default('') })
    .meta({
      id: 'PreviousCrop',
      description: 'SIEX catalogue PRODUCTOS: the crop before this one (SIEX CultivoPrecedente)',
    }),
  tool: z.boolean().describe('whether a digital tool drew the plan up (SIEX Herramienta)'),
  detail: z.string().max(2000).optional(),
};

export const planRequestSchema = z
  .strictObject(roundTripFields(requestFields))
  .meta({ id: 'AgriFertilizationPlanRequest' });

/** The record as stored: the request as registered, with its id and its dates of change. */
export const planRecordSchema = z
  .object({
    id: z.string().describe('urn:ngsi-ld:AgriFertilizationPlan:<n>').meta(READ_ONLY),
    ...requestFields,
    ...recordStamps,
  })
  .meta({ id: 'AgriFertilizationPlanStored' });

/** The record as every answer shows it: the stored record and whether SIEX would take it now. */
export const planRecordViewSchema = planRecordSchema.extend(exportabilityFields).meta({ id: 'AgriFertilizationPlan' });

export type PlanRecordView = z.infer<typeof planRecordViewSchema>;

/** An amendment, as for treatments. */
export const planPatchSchema = mergePatchSchemaOf(
  'AgriFertilizationPlanRequest',
  '`{"needs": {"n": 140}}` corrects the nitrogen need, `{"yieldTarget": 9000}` the yield target.',
  'AgriFertilizationPlanPatch',
);

export const planListQuerySchema = z.object({
  ...listPeriod('the day the plan was drawn up'),
  previousCrop: siexId.optional().describe('only plans after this crop (PRODUCTOS code)'),
  ...recordListFilters,
});
