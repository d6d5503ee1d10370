/**
 * A fertilization plan as the domain reads it (RD 1051/2022 arts. 5.a and 6: the plan, where it is compulsory, is
 * annexed to the farm notebook at the start of the campaign, per crop, with the crop's needs in N, P2O5 and K2O for
 * its yield target and the crop before it): codes as numbers, the day as an ISO day, absent things as null.
 */
export interface FertilizationPlan {
  /** ISO day (Madrid) the plan was drawn up (CUE `FechaGeneracion`). */
  date: string;
  /** The crop locations the plan is for. */
  idcp: number[];
  /** The crop's needs, in kg per hectare of N, P2O5 and K2O ("unidades fertilizantes"). */
  needs: Needs;
  /** kg of produce per hectare. */
  yieldTarget: number;
  /** PRODUCTOS: the crop before this one on the ground. */
  previousCrop: number;
  /** Whether a digital tool drew the plan up (CUE `Herramienta`). */
  tool: boolean;
  detail: string | null;
  /** The names the request gave its codes, by the code's path: echoed, never judged. */
  names: Record<string, string>;
}

/** kg/ha of each major nutrient, as fertilizer units count them (N, phosphorus as P2O5, potassium as K2O). */
interface Needs {
  n: number;
  p2o5: number;
  k2o: number;
}
