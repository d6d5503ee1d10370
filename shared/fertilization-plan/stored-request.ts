import { FertilizationPlan } from './plan';

/**
 * A plan's request as its record's pointer keeps it, format 1: the domain value as it was when plans began (issue 35).
 * The kind's own type, so a change of the domain value is not a change of what is stored unnoticed: the two
 * assignments below stop compiling, and the new domain value is written as a new format, read beside this one.
 */
export interface StoredPlanRequest {
  date: string;
  idcp: number[];
  needs: { n: number; p2o5: number; k2o: number };
  yieldTarget: number;
  previousCrop: number;
  tool: boolean;
  detail: string | null;
  names: Record<string, string>;
}

/** A plan as its pointer keeps it: format 1 is the domain value field for field. */
export function storedRequestOf(p: FertilizationPlan): StoredPlanRequest {
  return p;
}

/** A pointer's request (format 1, the only one) as the plan it stands for. */
export function planFromStored(stored: StoredPlanRequest): FertilizationPlan {
  return stored;
}
