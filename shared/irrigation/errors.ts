import { kindErrors, violationOf } from '../domain/errors';

/**
 * The irrigation's own error code (CUE Riego): its water.
 * Each with the status the edge answers it with; shared/app/error-codes.ts lays them beside the core's.
 */
export const IRRIGATION_ERRORS = kindErrors({
  IRRIGATION_UNIT: {
    status: 422,
    text: "an irrigation's water must be a volume or a volume per area (m3, L, m3/ha, L/m2...)",
  },
});

export type IrrigationErrorCode = keyof typeof IRRIGATION_ERRORS;

/** A violation of the core's codes or this kind's. */
export const irrigationViolation = violationOf(IRRIGATION_ERRORS);
