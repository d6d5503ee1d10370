import { z } from 'zod';
import { daySchema } from '../domain/day-schema';
import { listPeriod, recordListFilters } from '../api/query-params';
import { exportabilityFields, roundTripFields, idcpList, READ_ONLY, recordStamps } from '../api/record-fields';
import { mergePatchSchemaOf } from '../api/record-path-and-patch';

/**
 * The analysis (`AgriAnalysis`, RD 1051/2022 arts. 5.b and 6; RD 1311/2012 art. 16.3): the request the ERP sends, in
 * the seed's conventions (objects with `type`, `id` and `name`; days DD-MM-YYYY; `idcp` from listidcp).
 */
const NAME_MAX = 200;
const name = () => z.string().max(NAME_MAX).default('');
const siexId = z.string().max(10).regex(/^\d+$/, 'SIEX code as text');
const oneLine = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[^\n\r]*$/, 'one line');

const coded = (type: string, catalogue: string, id: string) =>
  z
    .strictObject({ type: z.literal(type), id: siexId, name: name() })
    .meta({ id, description: `SIEX catalogue ${catalogue}` });

const unique = <T extends { id: string }>(items: T[]) => new Set(items.map((i) => i.id)).size === items.length;

/** A figure of the report, in the unit the interface gives it (no FEGA text gives one: the team's reading). */
const figure = (max: number, unit: string) => z.number().min(0).max(max).optional().describe(unit);

/**
 * The soil parameters of a soil analysis (CUE `ParametrosSuelo`), the figures RD 1051/2022 art. 6 has the plan read:
 * organic matter and nutrients. Ranges are what the quantities can be: percentages of the soil's mass up to 100, the
 * three texture fractions together up to 100, pH on its 0 to 14 scale.
 */
const soilSchema = z
  .strictObject({
    organicMatter: figure(100, 'organic matter, % of dry soil'),
    sand: figure(100, 'sand, % of the fine earth'),
    silt: figure(100, 'silt, % of the fine earth'),
    clay: figure(100, 'clay, % of the fine earth'),
    ph: figure(14, 'pH (0 to 14)'),
    phosphorus: figure(100000, 'assimilable phosphorus (Olsen), mg/kg'),
    potassium: figure(100000, 'assimilable potassium, mg/kg'),
    nitrogen: figure(100, 'total nitrogen, % of dry soil'),
    conductivity: figure(1000, 'electrical conductivity, dS/m'),
  })
  .superRefine((s, ctx) => {
    const texture = (s.sand ?? 0) + (s.silt ?? 0) + (s.clay ?? 0);
    // A hundredth of tolerance: reports round each fraction.
    if (texture > 100.005)
      ctx.addIssue({ code: 'custom', path: [], message: `sand, silt and clay add up to ${texture} %, above 100` });
  })
  .meta({ id: 'SoilParameters' });

const requestFields = {
  type: z.literal('AgriAnalysis'),
  date: daySchema.describe('the day the sample was taken, DD-MM-YYYY (Madrid)'),
  idcp: idcpList(0)
    .default([])
    .describe('the crop locations sampled: at least one, except for a water analysis (material 4)'),
  material: coded('TypeAnalyzedMaterial', 'MATERIAL_ANALIZADO', 'AnalyzedMaterial'),
  analyses: z
    .array(coded('TypeAnalysis', 'TIPO_ANALISIS', 'AnalysisType'))
    .max(10)
    .refine(unique, 'an analysis appears twice')
    .default([]),
  substances: z
    .array(z.strictObject({ id: siexId, name: name() }).meta({ id: 'AnalysedSubstance' }))
    .max(300)
    .refine(unique, 'a substance appears twice')
    .default([])
    .describe('SIEX catalogue SUST_ACTIVAS: the active substances a residue analysis (TIPO_ANALISIS 1) looked for'),
  laboratory: z
    .strictObject({
      name: oneLine(NAME_MAX).describe("the laboratory's name (SIEX Laboratorio)"),
      nif: z.string().min(1).max(20).describe("the laboratory's NIF (SIEX Nif), a company's or a person's"),
    })
    .meta({ id: 'Laboratory' })
    .optional(),
  report: oneLine(50).optional().describe("the report's number (SIEX NumBoletin)"),
  soil: soilSchema.optional(),
  detail: z.string().max(2000).optional(),
};

export const analysisRequestSchema = z.strictObject(roundTripFields(requestFields)).meta({ id: 'AgriAnalysisRequest' });

/** The record as stored: the request as registered, with its id and its dates of change. */
export const analysisRecordSchema = z
  .object({
    id: z.string().describe('urn:ngsi-ld:AgriAnalysis:<n>').meta(READ_ONLY),
    ...requestFields,
    ...recordStamps,
  })
  .meta({ id: 'AgriAnalysisStored' });

/** The record as every answer shows it: the stored record and whether SIEX would take it now. */
export const analysisRecordViewSchema = analysisRecordSchema.extend(exportabilityFields).meta({ id: 'AgriAnalysis' });

export type AnalysisRecordView = z.infer<typeof analysisRecordViewSchema>;

/** An amendment, as for treatments. */
export const analysisPatchSchema = mergePatchSchemaOf(
  'AgriAnalysisRequest',
  '`{"report": "B-2026/0412"}` adds the report number, `{"soil": {"ph": 7.9}}` corrects the pH.',
  'AgriAnalysisPatch',
);

export const analysisListQuerySchema = z.object({
  ...listPeriod('the day of the sample'),
  material: siexId.optional().describe('only analyses of this material (MATERIAL_ANALIZADO code)'),
  ...recordListFilters,
});
