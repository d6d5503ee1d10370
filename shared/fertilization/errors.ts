import { kindErrors, violationOf } from '../domain/errors';

/**
 * The fertilization's own error codes (RD 1051/2022): its material, its dose, its nitrogen and its slurry.
 * Each with the status the edge answers it with; shared/app/error-codes.ts lays them beside the core's.
 */
export const FERTILIZATION_ERRORS = kindErrors({
  MATERIAL_DATA_MISSING: {
    status: 422,
    text: 'the fertilizer material lacks data MAT_FERTI asks of it (its "Campos a registrar"), or gives data of a kind it does not take',
  },
  FERTILIZER_DOSE_UNIT: {
    status: 422,
    text: "a fertilization's dose must be a mass or a volume per area (kg/ha, t/ha, L/ha, m3/ha...)",
  },
  NITROGEN_LIMIT_EXCEEDED: {
    status: 422,
    text: 'livestock manure on a nitrate-vulnerable enclosure would exceed 170 kg N/ha in the campaign (Directive 91/676/EEC, RD 47/2022)',
  },
  DETAIL_NOT_OF_MATERIAL: {
    status: 422,
    text: "the fertilizer's commercial product (DETALLE_MATERIAL_FERT) is a product of another material than the record's: each row of the catalogue belongs to one MAT_FERTI material",
  },
  SLUDGE_FLAG_MISMATCH: {
    status: 422,
    text: 'sludge contradicts the material: it is true for sewage sludge (MAT_FERTI 22, RD 1310/1990) and false for every other material',
  },
  SLURRY_METHOD_NOT_ALLOWED: {
    status: 422,
    text: 'slurry spread by a method RD 1051/2022 no longer allows, without a good practice it accepts (bands, injection, burial within 4 hours: BUENAS_PRACTICAS_AMBITOS 1, 2, 3, 8, 15)',
  },
});

export type FertilizationErrorCode = keyof typeof FERTILIZATION_ERRORS;

/** A violation of the core's codes or this kind's. */
export const fertilizationViolation = violationOf(FERTILIZATION_ERRORS);
