import { z } from 'zod';
import { isoDay } from '../domain/dates';
import { daySchema } from '../domain/day-schema';
import { listPeriod, recordListFilters } from '../api/query-params';
import {
  exportabilityFields,
  roundTripFields,
  idcpList,
  measureSchema,
  name,
  READ_ONLY,
  recordStamps,
} from '../api/record-fields';
import { mergePatchSchemaOf } from '../api/record-path-and-patch';

/**
 * The harvest (`AgriHarvest`, CUE `Cosecha`): the request the ERP sends, in the seed's conventions (objects with
 * `type`, `id` and an optional `name`; days DD-MM-YYYY; `idcp` from listidcp; `Measure` objects). Codes are SIEX
 * catalogue codes as text.
 */
const siexCode = z.string().max(10).regex(/^\d+$/, 'SIEX code as text');

/** A SIEX code in the seed's form, `{ type, id, name }`, the name optional (echoed, never judged). */
const codeOf = (type: string, catalogue: string, id: string) =>
  z
    .strictObject({ type: z.literal(type), id: siexCode, name: name().default('') })
    .meta({ id, description: `SIEX catalogue ${catalogue}` });

const distinct = <T extends { id: string }>(items: T[]) => new Set(items.map((i) => i.id)).size === items.length;

const harvestMachineSchema = z
  .strictObject({
    type: z.literal('HarvestMachine'),
    id: z
      .string()
      .regex(/^[0-9A-Za-z_]{1,12}$/, 'UNE machine type code: up to 12 letters, digits or _')
      .describe('UNE machine type code (SIEX catalogue TIPO_MAQUINA_UNE), e.g. a combine harvester'),
    name: name().default(''),
    power: z.number().positive().max(10_000).describe('its power, in powerMeasure'),
    powerMeasure: measureSchema.describe('CV (UNIDADES_MEDIDA 40) or kW (41)'),
    energy: codeOf('TypeEnergy', 'TIPENERGIA', 'EnergyType'),
    passes: z.number().int().positive().max(999).describe('how many passes it made (SIEX NumRepeticiones)'),
    hours: z.number().int().positive().max(9_999).describe('whole hours it worked (SIEX Duracion)'),
  })
  .meta({ id: 'HarvestMachine' });

const requestFields = {
  type: z.literal('AgriHarvest'),
  dateStart: daySchema.describe('first day of the harvest, DD-MM-YYYY (Madrid)'),
  dateEnd: daySchema.optional().describe('last day, DD-MM-YYYY; default: dateStart'),
  idcp: idcpList(),
  quantity: z.number().positive().max(1e9).describe('how much was harvested, in measure'),
  measure: measureSchema.describe('a UNIDADES_MEDIDA code of mass, volume or units (kg, t, L, m3, Unidades, Plantas)'),
  product: codeOf('TypePlantProduct', 'PROD_VEGETAL (its Id), of the crop of every idcp', 'PlantProduct'),
  purpose: z
    .array(codeOf('TypeHarvestPurpose', 'DEST_COSECHA', 'HarvestPurpose'))
    .max(16)
    .refine(distinct, 'a purpose appears twice')
    .default([]),
  residue: z
    .array(codeOf('TypeResidueDestination', 'DEST_RES_VEG', 'ResidueDestination'))
    .max(9)
    .refine(distinct, 'a residue destination appears twice')
    .default([]),
  cut: z
    .enum(['harvest', 'mowing'])
    .default('harvest')
    .describe('a harvest of the produce, or a mowing (SIEX CosechaSiega)'),
  seedForSowing: z.boolean().default(false).describe('kept as seed for sowing (SIEX SemillasSiembra)'),
  plants: z.boolean().default(false).describe('whole plants harvested (SIEX Plantas)'),
  notHarvested: z.boolean().default(false).describe('left unharvested (SIEX SinCosechado)'),
  leftOnSoil: z.boolean().default(false).describe('the mown residue left on the soil (SIEX DepositadoSuelo)'),
  machine: harvestMachineSchema.optional(),
  detail: z.string().max(2000).optional(),
};

export const harvestRequestSchema = z
  .strictObject(roundTripFields(requestFields))
  .superRefine((r, ctx) => {
    if (r.dateEnd !== undefined && isoDay(r.dateEnd) < isoDay(r.dateStart))
      ctx.addIssue({ code: 'custom', path: ['dateEnd'], message: 'dateEnd is before dateStart' });
  })
  .meta({ id: 'AgriHarvestRequest' });

/** The record as stored and answered: the request as registered, with its id and its last day. */
const harvestRecordSchema = z
  .object({
    id: z.string().describe('urn:ngsi-ld:AgriHarvest:<n>').meta(READ_ONLY),
    ...requestFields,
    dateEnd: z.string().describe('last day, DD-MM-YYYY (dateStart when the request gave none)'),
    ...recordStamps,
  })
  .meta({ id: 'AgriHarvestStored' });

/** The record as every answer shows it: the stored record and whether SIEX would take it now. */
export const harvestRecordViewSchema = harvestRecordSchema.extend(exportabilityFields).meta({ id: 'AgriHarvest' });

export type HarvestRecordView = z.infer<typeof harvestRecordViewSchema>;

/** An amendment, as for the other kinds. */
export const harvestPatchSchema = mergePatchSchemaOf(
  'AgriHarvestRequest',
  '`{"quantity": 12500}` corrects the quantity, `{"dateEnd": "07-01-2026"}` the last day, `{"detail": null}` removes ' +
    'the detail.',
  'AgriHarvestPatch',
);

export const harvestListQuerySchema = z.object({
  ...listPeriod('the first day of the harvest'),
  product: siexCode.optional().describe('only harvests of this plant product (PROD_VEGETAL Id)'),
  ...recordListFilters,
});
