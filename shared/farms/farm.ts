import { z } from 'zod';
import { REA_RE } from '../domain/nif';

const digits = (label: string) => z.string().regex(/^\d{1,5}$/, `${label}: expected 1 to 5 digits`);

/** A SIGPAC enclosure (recinto) with its area and, when known, the SIEX DGC it maps to. */
const enclosureSchema = z.strictObject({
  prov: digits('prov'),
  town: digits('town'),
  aggr: digits('aggr'),
  zone: digits('zone'),
  pol: digits('pol'),
  parc: digits('parc'),
  enc: digits('enc'),
  dimension: z.string().regex(/^\d+(\.\d+)?$/, 'hectares as a decimal string'),
  /**
   * Hectares of this crop on the enclosure, as its REA DGC declares them: what SIEX is told the crop covers when a
   * record states no treated area, and the weight of the crop's part when it does (shared/farms/treated-area.ts).
   */
  cropArea: z
    .string()
    .regex(/^\d+(\.\d{1,2})?$/, 'hectares as a decimal string, at most 2 decimals (the REA DGC area)')
    .refine((s) => Number(s) > 0, 'above 0')
    .optional(),
  /**
   * In a zone designated vulnerable to nitrates (Directive 91/676/EEC; RD 47/2022, art. 3): livestock manure is
   * limited there to 170 kg N/ha a campaign (Annex III.2), which the record kind that brings manure enforces. An
   * enclosure named under several crops is vulnerable when any of its rows says so.
   */
  nitrateVulnerable: z.boolean().optional(),
  // SIEX takes CodigoDGC as a JSON integer, so it must also be exact as a JavaScript number.
  dgc: z
    .string()
    .regex(/^\d{1,16}$/, 'up to 16 digits')
    .refine((s) => Number.isSafeInteger(Number(s)), 'at most 9007199254740991')
    .optional(),
});

/** A crop of the campaign and the parcels (with their enclosures) it grows on. */
const farmCropSchema = z.strictObject({
  typecrop: z.strictObject({ id: z.string().regex(/^\d+$/, 'SIEX crop code'), name: z.string().min(1) }),
  code: z.number().int().nonnegative(),
  name: z.string().min(1),
  parcels: z.array(z.strictObject({ name: z.string().min(1), sigpac: z.array(enclosureSchema).min(1) })).min(1),
});

/** A holding (REA) in one campaign year, as the register knows it. */
export const farmSchema = z.strictObject({
  rea: z.string().regex(REA_RE, 'letters and digits'),
  codigoRea: z.string().length(14).optional(),
  year: z.number().int().min(2000).max(2100),
  name: z.string().min(1),
  description: z.string().default(''),
  locality: z.string().default(''),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, 'ISO 3166-1 alpha-2')
    .default('ES'),
  province: z.string().default(''),
  community: z.strictObject({ code: z.string().regex(/^\d{2}$/, 'two-digit INE code'), name: z.string().min(1) }),
  owner: z.strictObject({
    name: z.string().default(''),
    surname: z.string().default(''),
    email: z.string().default(''),
    nif: z.string().default(''),
  }),
  /**
   * Whether the holding manages its inputs sustainably under RD 1051/2022 (CUE `GestionSostInsu`, which FEGA's
   * descriptor requires of every block of the nutrient inputs): the holding's answer, which a record may override, and
   * until one of them says, such a record is not exported. Absent: unknown, never assumed.
   */
  sustainableInputs: z.boolean().optional(),
  crops: z.array(farmCropSchema).default([]),
});
export type Farm = z.infer<typeof farmSchema>;
