import { kindErrors, violationOf } from '../domain/errors';

/**
 * The treated seed's own error code: seed treated before sowing names its products.
 * Each with the status the edge answers it with; shared/app/error-codes.ts lays them beside the core's.
 */
export const TREATED_SEED_ERRORS = kindErrors({
  SEED_PRODUCTS_REQUIRED: {
    status: 422,
    text: 'seed treated on the farm or at a conditioning centre (TIPO_TRATAMIENTO 2, 3) must name the products it was treated with',
  },
});

export type TreatedSeedErrorCode = keyof typeof TREATED_SEED_ERRORS;

/** A violation of the core's codes or this kind's. */
export const treatedSeedViolation = violationOf(TREATED_SEED_ERRORS);
