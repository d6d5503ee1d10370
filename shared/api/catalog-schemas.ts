import { z } from 'zod';
import { ROPO_RE } from '../domain/nif';
import { pestKinds } from '../domain/pest-kind';
import { cardLevels, ropoLevels } from '../domain/ropo';
import { useScopes } from '../domain/use-scope';
import { DAY_PATTERN, paginationQuery } from './query-params';

/**
 * The catalogue endpoints: what an ERP needs to offer only choices the gateway accepts (the products a registration
 * for a crop and day would take, one product, the SIEX code catalogues, an applicator's card). Queries, path
 * parameters and answers; types and the OpenAPI document come from these schemas.
 */

const day = () =>
  z.string().meta({ pattern: DAY_PATTERN }).optional().describe('DD-MM-YYYY, a Madrid day; default: today in Madrid');

/** `kind:code`, the pest filter: codes repeat across the four SIEX pest catalogues, so the kind says which. */
export const PEST_FILTER_RE = new RegExp(`^(${pestKinds.join('|')}):([1-9]\\d{0,9})$`);

export const cropProductsQuerySchema = z.object({
  crop: z
    .string()
    .regex(/^\d{1,10}$/, 'a SIEX crop code (catalogue PRODUCTOS), digits')
    .describe('SIEX crop code (catalogue PRODUCTOS), as `crop.typecrop.id` of the farm lookup'),
  date: day().describe('the application day, DD-MM-YYYY (Madrid); default: today in Madrid'),
  pest: z
    .string()
    .regex(PEST_FILTER_RE, 'kind:code, kind one of enfermedad, plaga, mala_hierba, regulador (e.g. plaga:21)')
    .optional()
    .describe(
      'only uses that authorise this pest, `kind:code` (`plaga:21`), as `infection.kind` and `infection.id` of a ' +
        'registration: a use for a group it belongs to counts (a use against Ácaros, PLAGAS 6.1, for plaga:21, 6.1.3.4)',
    ),
  scope: z
    .enum(useScopes)
    .optional()
    .describe(
      'only uses for what the registration treats: `field` (the default), the growing crop, the only uses a ' +
        'treatment is judged against; `postharvest`, its harvested produce; `seed`, its seed before sowing; ' +
        '`facility`, stores and premises, whose uses name no crop and are listed whatever `crop` is',
    ),
  q: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe('words in the product or substance name (case and accents ignored)'),
  ...paginationQuery,
});

/** A product code as the register and the API write it: `ES-11179`, also `ES11179`, `es-11179` or `11179`. */
export const productParamsSchema = z.object({
  code: z
    .string()
    .regex(/^([Ee][Ss]-?)?\d{1,10}$/, 'a product code ES-XXXXX')
    .describe('the product code, `ES-XXXXX` as `subtype.code` of a registration (`11179` and `ES11179` work too)'),
});

/** Every SIEX catalogue the gateway serves, by the name in the path, and the official catalogue it is. */
export const SIEX_CATALOGUES = {
  units: 'UNIDADES_MEDIDA',
  crops: 'PRODUCTOS',
  pests: 'PLAGAS',
  diseases: 'ENFERMEDADES',
  weeds: 'MALAS_HIERBAS',
  'growth-regulators': 'REGULADORES_CRECIMIENTO',
  justifications: 'JUSTIFICACION_ACTUACION',
  efficacy: 'EFICACIA_TRATAMIENTO',
  'phenological-stages': 'EST_FENOLOGICO',
  'machine-types': 'TIPO_MAQUINA_UNE',
  // fertilization (RD 1051/2022)
  'fertilizer-materials': 'MAT_FERTI',
  'fertilizer-details': 'DETALLE_MATERIAL_FERT',
  'fertilization-kinds': 'TIPO_FERITILIZACION',
  'fertilization-methods': 'METODO_APLICACION_FERTILIZANTE',
  macronutrients: 'MACRONUTRIENTES',
  micronutrients: 'MICRONUTRIENTES',
  'heavy-metals': 'METALES_PESADOS',
  'manure-treatments': 'TRAT_ESTIERCOLES',
  'irrigation-systems': 'SIST_RIEGO',
  'irrigation-water-origins': 'ORIGEN_AGUA_RIEGO',
  'fertilization-good-practices': 'BUENAS_PRACTICAS_FERTILIZACION',
  // harvest (CUE Cosecha)
  'plant-products': 'PROD_VEGETAL',
  'harvest-purposes': 'DEST_COSECHA',
  'residue-destinations': 'DEST_RES_VEG',
  'energy-types': 'TIPENERGIA',
  // irrigation (RD 1051/2022)
  'irrigation-good-practices': 'BUENAS_PRACTICAS_RIEGO',
  // analyses (RD 1051/2022)
  'analysed-materials': 'MATERIAL_ANALIZADO',
  'analysis-types': 'TIPO_ANALISIS',
  'active-substances': 'SUST_ACTIVAS',
  // store and premises treatments (CUE TratamientosEdifInstalaciones)
  'facility-classes': 'EDIFICACIONES_INSTALACIONES',
  // seed treated before sowing
  'seed-treatments': 'TIPO_TRATAMIENTO',
} as const;
export type SiexCatalogueName = keyof typeof SIEX_CATALOGUES;
const siexCatalogueNames = Object.keys(SIEX_CATALOGUES) as SiexCatalogueName[];

export const siexCatalogueParamsSchema = z.object({
  // Any text passes the schema: a name the gateway does not serve is 404 (no such catalogue), not 400.
  name: z
    .string()
    .meta({ enum: siexCatalogueNames })
    .describe(
      'the catalogue: ' +
        Object.entries(SIEX_CATALOGUES)
          .map(([name, official]) => `\`${name}\` (${official})`)
          .join(', '),
    ),
});

export const siexCatalogueQuerySchema = z.object({
  date: day().describe('the day `inForce` is answered for, DD-MM-YYYY (Madrid); default: today in Madrid'),
  ...paginationQuery,
});

export const applicatorQuerySchema = z.object({
  ropo: z.string().regex(ROPO_RE, 'ROPO number ES-XXXXXXXX').describe('the ROPO card number, ES-XXXXXXXX'),
  nif: z.string().min(1).max(20).describe("the card holder's NIF or NIE (spaces, hyphens and case ignored)"),
});

// ---------------------------------------------------------------------------------------------------------------
// Answers.

/** How the API names the ways a supplier is identified (SIEX `NifEmpresa`, `REGA`, `NIMA`), one of them per supplier. */
export const supplierIdFields = ['nif', 'rega', 'nima'] as const;

const dayText = (what: string) => z.string().describe(`${what}, DD-MM-YYYY`);
const limit = (what: string) => z.number().int().nullable().describe(`${what}; null when the label sets none`);

const catalogueUnitSchema = z
  .object({
    code: z.number().int().describe('SIEX unit code: `measure.code` of a registration'),
    symbol: z.string().describe('`measure.symbol`'),
    name: z.string().describe('in words'),
  })
  .meta({ id: 'CatalogueUnit', description: 'a unit of the SIEX catalogue UNIDADES_MEDIDA' });

const authorisedPestSchema = z
  .object({
    kind: z.enum(pestKinds).describe('`infection.kind`: which SIEX catalogue the code is of'),
    code: z
      .number()
      .int()
      .nullable()
      .describe(
        '`infection.id` (as text); null when no SIEX catalogue codes the pest the register names: a registration ' +
          'names it by these words in `infection.name`',
      ),
    name: z.string().describe("the SIEX catalogue's name, or the register's words when it has no code"),
  })
  .meta({ id: 'AuthorisedPest', description: 'a pest, disease, weed or growth regulation a use authorises' });

const productUseSchema = z
  .object({
    dose: z
      .object({
        min: z.number().describe('the least dose authorised'),
        max: z.number().describe('the largest dose authorised'),
        unit: catalogueUnitSchema,
      })
      .describe('the dose range, in its unit: a registration may give the dose in any unit of the same kind'),
    pests: z
      .array(authorisedPestSchema)
      .describe('what the use authorises the product against; groups cover what is in them'),
    months: z
      .array(z.number().int().min(1).max(12))
      .nullable()
      .describe('the months (1-12) the use authorises; null: every month'),
    maxApplications: limit('applications per campaign on an enclosure, at most'),
    minIntervalDays: limit('calendar days between two applications on an enclosure, at least'),
    preHarvestDays: z
      .union([z.number().int(), z.literal('NP')])
      .nullable()
      .describe(
        'pre-harvest interval (plazo de seguridad), days; "NP" when the register says none applies (NO PROCEDE), which is not 0 days; null when the label sets none',
      ),
  })
  .meta({ id: 'ProductUse', description: 'an authorised use of a product, from the official register' });

const cropRefSchema = z
  .object({ code: z.string().describe('SIEX crop code (PRODUCTOS)'), name: z.string() })
  .meta({ id: 'CropRef' });

const productUseOnCropsSchema = productUseSchema
  .extend({
    scope: z
      .enum(useScopes)
      .describe(
        'what the use treats: `field` (growing crops), `postharvest` (their harvested produce), `seed` (their seed, ' +
          'before sowing) or `facility` (stores and premises, no crop)',
      ),
    crops: z.array(cropRefSchema).describe('the crops the use authorises; for `facility`, none'),
  })
  .meta({ id: 'ProductUseOnCrops', description: 'an authorised use of a product, with its crops' });

const productFields = {
  code: z.string().describe('`subtype.code` of a registration, ES-XXXXX'),
  name: z.string().describe('the name in the official register'),
  holder: z.string().describe('the holder of the authorisation'),
  substance: z.string().describe('the active substance and formulation'),
  type: z.object({ id: z.number().int(), name: z.string() }).describe('the kind of product (fungicide, herbicide...)'),
  registered: dayText('registered on'),
  expires: dayText('the authorisation expires on'),
  lastUse: z
    .string()
    .describe("the last day of use after expiry or withdrawal (grace period), DD-MM-YYYY; '' when none"),
  requiredLevel: z
    .enum(ropoLevels)
    .describe('the ROPO card level an applicator needs (a cualificado card covers basico)'),
};

export const cropProductSchema = z
  .object({
    ...productFields,
    uses: z
      .array(productUseSchema)
      .min(1)
      .describe(
        'its uses for the crop on the day (and against the pest, when asked), uses alike but for the pest as one',
      ),
  })
  .meta({ id: 'CropProduct', description: 'a product a registration for the crop on the day would accept' });

const productStanding = ['in-force', 'not-registered-yet', 'ended', 'no-known-valid-day'] as const;

export const catalogueProductSchema = z
  .object({
    ...productFields,
    withdrawn: z.string().describe("the day the register withdrew it, DD-MM-YYYY; '' when it has not"),
    registerState: z
      .string()
      .describe("the register's state when it no longer authorises it ('Cancelado'...); '' otherwise"),
    state: z
      .object({
        on: dayText('the day of this state: today in Madrid'),
        standing: z.enum(productStanding).describe('whether a registration of that day may use it, and if not, why'),
        description: z.string(),
      })
      .meta({ id: 'ProductState' }),
    uses: z.array(productUseOnCropsSchema).describe('every authorised use, on every crop'),
  })
  .meta({ id: 'CatalogueProduct', description: 'a product of the official register, with every use' });

const codeAndName = z.object({ code: z.string(), name: z.string() });

/** What a fertilizer material must record (MAT_FERTI's "Campos a registrar", read into a table). */
const materialRecordSchema = z
  .object({
    nutrients: z
      .array(codeAndName)
      .describe(
        'MACRONUTRIENTES the record gives in `material.nutrients` (all of them, or with `byLabel` at least one)',
      ),
    optionalNutrients: z.array(codeAndName).describe('MACRONUTRIENTES it may give'),
    byLabel: z.boolean().describe("the nutrients are those the product's label declares: at least one of `nutrients`"),
    supplier: z
      .array(z.enum(supplierIdFields))
      .describe('how `material.supplier` identifies the supplier (exactly one of these); empty: no supplier'),
    treatments: z
      .array(codeAndName)
      .describe('TRAT_ESTIERCOLES the material may have received (`material.treatment`); empty: none is recorded'),
    productName: z.boolean().describe('`material.productName` is required'),
    heavyMetals: z.boolean().describe('`material.heavyMetals` is required (METALES_PESADOS)'),
  })
  .meta({ id: 'FertilizerMaterialRecord' });

export const siexEntrySchema = z
  .object({
    code: z
      .string()
      .describe('the SIEX code, as the catalogue writes it (`measure.code` takes a unit code as an integer)'),
    name: z.string().describe('its name (for units: in words)'),
    symbol: z.string().optional().describe('units: the symbol, `measure.symbol`'),
    kind: z.enum(pestKinds).optional().describe('pest catalogues: `infection.kind` for these codes'),
    scientific: z
      .string()
      .optional()
      .describe("pest catalogues: the scientific name; fertilizer details: the label's product name"),
    eppo: z.string().optional().describe('the EPPO code, where the catalogue gives one'),
    path: z.string().optional().describe('pest catalogues: the hierarchy code (`6.1.3.4`)'),
    parent: z
      .string()
      .nullable()
      .optional()
      .describe(
        'pest catalogues: the SIEX code of the nearest group it belongs to, null at the top; fertilizer details: ' +
          'the MAT_FERTI material it is a product of',
      ),
    stage: z.string().optional().describe('phenological stages: the principal growth stage (BBCH)'),
    record: materialRecordSchema
      .optional()
      .describe(
        'fertilizer materials: what a fertilization of this material must record (MAT_FERTI "Campos a registrar")',
      ),
    inForce: z.boolean().describe('whether the code may be used on the day asked for'),
    until: z.string().describe("the first day it is no longer valid (Fecha de baja), DD-MM-YYYY; '' when it has none"),
  })
  .meta({ id: 'SiexCatalogueEntry', description: 'a code of a SIEX catalogue' });

export const applicatorCardSchema = z
  .object({
    ropo: z.string().describe('the ROPO card number'),
    levels: z
      .array(z.enum(cardLevels))
      .describe('the card levels held; `asesor` is the advisor registration (RD 1311/2012, arts. 11-12)'),
    covers: z
      .array(z.enum(ropoLevels))
      .describe('the levels of products the card may apply (a cualificado card covers basico too)'),
    advisor: z
      .boolean()
      .describe('whether the card holds the advisor registration (`asesor`), so that it may be given as `advisor`'),
    validUntil: dayText('valid through'),
    expired: z.boolean().describe('past its validity today (Madrid)'),
    suspended: z.boolean(),
  })
  .meta({
    id: 'ApplicatorCard',
    description: "a ROPO card, found by its number and its holder's NIF together; no personal data beyond them",
  });

export type CatalogueUnitView = z.infer<typeof catalogueUnitSchema>;
export type AuthorisedPest = z.infer<typeof authorisedPestSchema>;
export type ProductUseView = z.infer<typeof productUseSchema>;
export type ProductUseOnCrops = z.infer<typeof productUseOnCropsSchema>;
export type CropProduct = z.infer<typeof cropProductSchema>;
export type CatalogueProduct = z.infer<typeof catalogueProductSchema>;
export type SiexEntry = z.infer<typeof siexEntrySchema>;
export type ApplicatorCard = z.infer<typeof applicatorCardSchema>;
export type CropProductsQuery = z.infer<typeof cropProductsQuerySchema>;
export type SiexCatalogueQuery = z.infer<typeof siexCatalogueQuerySchema>;

/** Every answer schema of the catalogue endpoints: their ETags change with the answers' shape. */
export const CATALOGUE_ANSWER_SCHEMAS = [
  cropProductSchema,
  catalogueProductSchema,
  siexEntrySchema,
  applicatorCardSchema,
];
