import { kindErrors, violationOf } from '../domain/errors';

/**
 * The harvest's own error codes (CUE Cosecha): its quantity, its produce and the treatments that hold it.
 * Each with the status the edge answers it with; shared/app/error-codes.ts lays them beside the core's.
 */
export const HARVEST_ERRORS = kindErrors({
  HARVEST_QUANTITY_UNIT: {
    status: 422,
    text: "a harvest's quantity must be an amount: a mass, a volume or units (kg, t, L, m3, Unidades...)",
  },
  HARVEST_PRODUCT_NOT_OF_CROP: {
    status: 422,
    text: 'the plant product (PROD_VEGETAL) is not produce of the crop of every location harvested',
  },
  PRE_HARVEST_INTERVAL_NOT_MET: {
    status: 422,
    text: "a treatment of the location's enclosure and crop holds the harvest: its product's pre-harvest interval has not run (Reg. (CE) 1107/2009 art. 31; RD 1311/2012 Anexo III)",
  },
});

export type HarvestErrorCode = keyof typeof HARVEST_ERRORS;

/** A violation of the core's codes or this kind's. */
export const harvestViolation = violationOf(HARVEST_ERRORS);
