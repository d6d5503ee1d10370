import { z } from 'zod';
import { parseDate } from '../domain/dates';
import { isValidPersonalNif, PRODUCT_CODE_RE, REA_RE, ROPO_RE } from '../domain/nif';

/**
 * The back-office dataset (docs/backoffice-dataset.md): what operators load with `npm run admin -- import`.
 * Unknown fields are rejected everywhere, so a typo in a field name is reported instead of silently ignored.
 */
const day = z.string().refine((s) => parseDate(s) !== null, { message: 'expected a real date DD-MM-YYYY' });
const optionalDay = z.union([z.literal(''), day]).default('');
const secret = z.string().min(32, 'a key must be at least 32 characters');
const digits = (label: string) => z.string().regex(/^\d{1,5}$/, `${label}: expected 1 to 5 digits`);

export const ropoLevels = ['basico', 'cualificado', 'fumigador', 'piloto'] as const;
export const ropoLevelSchema = z.enum(ropoLevels);
export type RopoLevel = z.infer<typeof ropoLevelSchema>;

export const pestKinds = ['enfermedad', 'plaga', 'mala_hierba', 'regulador'] as const;
export const pestKindSchema = z.enum(pestKinds);

export const clientSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{1,62}$/, 'lower-case letters, digits and hyphens'),
  name: z.string().min(1),
  email: z.email(),
  sidKey: secret,
  apiKey: secret,
  /** Credentials stop working after this day (spec: expired credentials give 401). */
  expires: optionalDay,
  /**
   * The client's API Management subscription (its identifier, as in `/subscriptions/<id>`); default: the client id.
   * Behind APIM the API key must belong to this subscription, so the two keys of a client only work together.
   */
  apimSubscriptionId: z.string().regex(/^[A-Za-z0-9._-]{1,80}$/, 'an APIM subscription identifier').optional(),
  farms: z.array(z.string().min(1)).default([]),
});

export const applicatorSchema = z.strictObject({
  nif: z.string().refine(isValidPersonalNif, { message: 'not a valid NIF/NIE (control letter)' }),
  name: z.string().min(1),
  ropo: z.string().regex(ROPO_RE, 'expected ES- and 8 digits'),
  levels: z.array(ropoLevelSchema).min(1),
  validUntil: day,
  suspended: z.boolean().default(false),
});

export const productUseSchema = z.strictObject({
  cropTypeIds: z.array(z.string().regex(/^\d+$/, 'SIEX crop code')).min(1),
  /**
   * `code` 0: the official register names a pest that no SIEX catalogue has (the register's words are in `name`, and
   * `kind` is the product's usual kind). The register import stores such uses and reports them; they still authorise
   * the crop and dose, but match no infection code.
   */
  pest: z.strictObject({ code: z.number().int().nonnegative(), kind: pestKindSchema, name: z.string().min(1) }),
  doseMin: z.number().nonnegative(),
  doseMax: z.number().positive(),
  /** `code` 0: a register dose unit with no SIEX unit (the register's symbol is kept); reported by the import. */
  unit: z.strictObject({ code: z.number().int().nonnegative(), symbol: z.string().min(1) }),
  maxApplications: z.number().int().positive().optional(),
  minIntervalDays: z.number().int().nonnegative().optional(),
  safetyDays: z.number().int().nonnegative().optional(),
  months: z.array(z.number().int().min(1).max(12)).min(1).optional(),
}).refine((u) => u.doseMin <= u.doseMax, { message: 'doseMin is above doseMax', path: ['doseMin'] });

export const productSchema = z.strictObject({
  code: z.string().regex(PRODUCT_CODE_RE, 'expected ES- and 5 digits'),
  name: z.string().min(1),
  type: z.strictObject({ id: z.number().int().positive(), name: z.string().min(1) }),
  holder: z.strictObject({ name: z.string().min(1), nif: z.string().default('') }),
  substance: z.strictObject({ name: z.string().min(1) }),
  registered: day,
  expires: day,
  lastUse: optionalDay,
  requiredLevel: ropoLevelSchema.default('basico'),
  uses: z.array(productUseSchema).min(1),
  /**
   * Set by the register import when the official register withdrew the product (cancelled, or gone from a newer
   * export): the day it was withdrawn. `expires` / `lastUse` already end it; this says why, for messages and reports.
   */
  withdrawn: day.optional(),
});

export const enclosureSchema = z.strictObject({
  prov: digits('prov'),
  town: digits('town'),
  aggr: digits('aggr'),
  zone: digits('zone'),
  pol: digits('pol'),
  parc: digits('parc'),
  enc: digits('enc'),
  dimension: z.string().regex(/^\d+(\.\d+)?$/, 'hectares as a decimal string'),
  // SIEX takes CodigoDGC as a JSON integer, so it must also be exact as a JavaScript number.
  dgc: z
    .string()
    .regex(/^\d{1,16}$/, 'up to 16 digits')
    .refine((s) => Number.isSafeInteger(Number(s)), 'at most 9007199254740991')
    .optional(),
});

export const farmCropSchema = z.strictObject({
  typecrop: z.strictObject({ id: z.string().regex(/^\d+$/, 'SIEX crop code'), name: z.string().min(1) }),
  code: z.number().int().nonnegative(),
  name: z.string().min(1),
  parcels: z.array(z.strictObject({ name: z.string().min(1), sigpac: z.array(enclosureSchema).min(1) })).min(1),
});

export const farmSchema = z.strictObject({
  rea: z.string().regex(REA_RE, 'letters and digits'),
  codigoRea: z.string().length(14).optional(),
  year: z.number().int().min(2000).max(2100),
  name: z.string().min(1),
  description: z.string().default(''),
  locality: z.string().default(''),
  country: z.string().regex(/^[A-Z]{2}$/, 'ISO 3166-1 alpha-2').default('ES'),
  province: z.string().default(''),
  community: z.strictObject({ code: z.string().regex(/^\d{2}$/, 'two-digit INE code'), name: z.string().min(1) }),
  owner: z.strictObject({
    name: z.string().default(''),
    surname: z.string().default(''),
    email: z.string().default(''),
    nif: z.string().default(''),
  }),
  crops: z.array(farmCropSchema).default([]),
});

export const datasetSchema = z.strictObject({
  clients: z.array(clientSchema).default([]),
  applicators: z.array(applicatorSchema).default([]),
  products: z.array(productSchema).default([]),
  farms: z.array(farmSchema).default([]),
});

export type Dataset = z.infer<typeof datasetSchema>;
export type ClientInput = z.infer<typeof clientSchema>;
export type ApplicatorInput = z.infer<typeof applicatorSchema>;
export type ProductInput = z.infer<typeof productSchema>;
export type ProductUse = z.infer<typeof productUseSchema>;
export type FarmInput = z.infer<typeof farmSchema>;
export type FarmCropInput = z.infer<typeof farmCropSchema>;
export type EnclosureInput = z.infer<typeof enclosureSchema>;
