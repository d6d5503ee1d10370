import { z } from 'zod';
import { daySchema, optionalDaySchema } from '../domain/day-schema';
import { PRODUCT_CODE_RE } from '../domain/nif';
import { pestKindSchema } from '../domain/pest-kind';
import { ropoLevelSchema } from '../domain/ropo';
import { UseScope, useScopeSchema } from '../domain/use-scope';

/**
 * The register's "NO PROCEDE" for the pre-harvest interval: none applies, which is a different statement from an
 * interval of 0 days. Stored records and the catalogue answer write it as this text.
 */
export const NOT_APPLICABLE_DAYS = 'NP';
const safetyDaysSchema = z.union([z.number().int().nonnegative(), z.literal(NOT_APPLICABLE_DAYS)]);
export type SafetyDays = z.infer<typeof safetyDaysSchema>;

/** One authorised use of a product from the official register: a crop set, a pest, a dose range and the label's limits. */
const productUseSchema = z
  .strictObject({
    /**
     * Absent: `field`, so that products stored before scopes existed, and every field use since, keep their stored
     * form (and content hash) unchanged.
     */
    scope: useScopeSchema.optional(),
    /** The crops of a field use; the crops of the produce or the seed treated otherwise. Premises name none. */
    cropTypeIds: z.array(z.string().regex(/^\d+$/, 'SIEX crop code')),
    /**
     * `code` 0: the official register names a pest that no SIEX catalogue has (the register's words are in `name`,
     * and `kind` is the product's usual kind). The register import stores such uses and reports them; they still
     * authorise the crop and dose, but match no infection code.
     */
    pest: z.strictObject({ code: z.number().int().nonnegative(), kind: pestKindSchema, name: z.string().min(1) }),
    doseMin: z.number().nonnegative(),
    doseMax: z.number().positive(),
    /**
     * A SIEX unit (UNIDADES_MEDIDA): the register import converts the register's units that SIEX does not code (cc/ha,
     * ml/ha, Kg/Hl) into a coded unit of the same kind, and leaves out and reports the uses whose unit it cannot place.
     */
    unit: z.strictObject({ code: z.number().int().positive(), symbol: z.string().min(1) }),
    maxApplications: z.number().int().positive().optional(),
    minIntervalDays: z.number().int().nonnegative().optional(),
    safetyDays: safetyDaysSchema.optional(),
    months: z.array(z.number().int().min(1).max(12)).min(1).optional(),
  })
  .refine((u) => u.doseMin <= u.doseMax, { message: 'doseMin is above doseMax', path: ['doseMin'] })
  .refine((u) => u.scope === 'facility' || u.cropTypeIds.length > 0, {
    message: 'a use names at least one crop, unless its scope is facility (stores and premises)',
    path: ['cropTypeIds'],
  });
export type ProductUse = z.infer<typeof productUseSchema>;

/** The scope of a use: `field` when it states none. */
export function scopeOf(use: Pick<ProductUse, 'scope'>): UseScope {
  return use.scope ?? 'field';
}

/** A plant protection product as the gateway knows it, from the official register or the back-office dataset. */
export const productSchema = z.strictObject({
  code: z.string().regex(PRODUCT_CODE_RE, 'expected ES- and 5 digits'),
  name: z.string().min(1),
  type: z.strictObject({ id: z.number().int().positive(), name: z.string().min(1) }),
  holder: z.strictObject({ name: z.string().min(1), nif: z.string().default('') }),
  substance: z.strictObject({ name: z.string().min(1) }),
  registered: daySchema,
  expires: daySchema,
  lastUse: optionalDaySchema,
  requiredLevel: ropoLevelSchema.default('basico'),
  uses: z.array(productUseSchema).min(1),
  /**
   * Set by the register import when the official register withdrew the product (cancelled, or gone from a newer
   * export): the day it was withdrawn. `expires` / `lastUse` already end it; this says why, for messages and reports.
   */
  withdrawn: daySchema.optional(),
  /** The register's state when it no longer authorises the product ("Cancelado", "Caducado"), as written there. */
  registerState: z.string().min(1).optional(),
  /**
   * The register withdrew the product without any day it was still valid on (no cancellation, expiry or grace date):
   * it is in force on no day at all, whatever `expires` says (shared/catalog/product-state.ts).
   */
  noKnownValidDay: z.literal(true).optional(),
});
export type Product = z.infer<typeof productSchema>;
