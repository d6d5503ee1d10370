import { kindErrors, violationOf } from '../domain/errors';

/**
 * The phytosanitary treatment's own error codes: its mix, its history on an enclosure, its spray volume and its non-chemical measures (CUE OtrasActuacionesFito). The codes it shares with the kinds of the plant-protection part (product, dose, applicator) are the core's.
 * Each with the status the edge answers it with; shared/app/error-codes.ts lays them beside the core's.
 */
export const PHYTO_ERRORS = kindErrors({
  MIX_TOO_LARGE: {
    status: 400,
    text: 'products (the main one and its mix) times idcp exceed 47: one change could not be written whole',
  },
  MIN_INTERVAL: {
    status: 422,
    text: 'too close (in Madrid calendar days) to another application of the product on the same enclosure',
  },
  MAX_APPLICATIONS: {
    status: 422,
    text: 'the maximum number of applications per campaign on an enclosure is reached',
  },
  SPRAY_VOLUME_ABOVE_MAX: {
    status: 422,
    text: 'the spray volume (soup over the treated area) is above 5,000 L/ha, more than any label of the official register allows',
  },
  PRODUCT_AND_MEASURE: {
    status: 422,
    text: "a treatment is a product or a non-chemical measure, not both (FEGA's descriptor: OtrasActuacionesFito excludes ProductosFito): send the measure as a treatment of its own",
  },
  MEASURE_QUANTITY_UNIT: {
    status: 422,
    text: "a measure's quantity is in a unit FEGA lists for it: units, units/m2, units/ha, m2, m2 of net/ha, kg, kg/ha (UNIDADES_MEDIDA 11, 15, 16, 1, 28, 5, 17)",
  },
  MDF_REGISTRATION_REQUIRED: {
    status: 422,
    text: "a release of beneficial organisms, traps and pheromones (TIPO_MEDIDA_FITOSANITARIA 1, 14, 15) name their number in the Registro de Medios de Defensa Fitosanitaria (FEGA's descriptor: NumRegistroMDF obligatory)",
  },
});

export type PhytoErrorCode = keyof typeof PHYTO_ERRORS;

/** A violation of the core's codes or this kind's. */
export const phytoViolation = violationOf(PHYTO_ERRORS);

/**
 * A code of this kind, as a zod refinement names it (`params.code`): named through this module, so the table is
 * declared wherever a refinement can raise it (shared/domain/validation.ts checks a code against the declared ones).
 */
export function phytoCode(code: PhytoErrorCode): PhytoErrorCode {
  return code;
}
