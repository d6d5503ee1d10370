/**
 * An irrigation as the domain reads it (RD 1051/2022 art. 5: the irrigation's dates and water in the notebook): codes
 * as numbers, days as ISO days, absent things as null. The wire body maps to it and back (wire-mapper.ts); nothing in
 * the rules or the CUE mapping reads the wire shape.
 */
export interface Irrigation {
  /** ISO days (Madrid); `end` is never before `start`. */
  start: string;
  end: string;
  idcp: number[];
  /** SIST_RIEGO. */
  system: number;
  /** The water, in `unit`: a volume (m3, L) or a volume per area (m3/ha, L/m2). */
  quantity: number;
  unit: Unit;
  /** ORIGEN_AGUA_RIEGO. */
  waterOrigins: number[];
  /** TIPENERGIA; null when not given. */
  energy: number | null;
  /** The water meter's number (CUE `NumContador`). */
  meter: string | null;
  /** BUENAS_PRACTICAS_AMBITOS codes of the "Riego" scope. */
  goodPractices: number[];
  detail: string | null;
  /** The names the request gave its codes, by the code's path (`system`, `goodPractices.21`): echoed, never judged. */
  names: Record<string, string>;
}

/** A UNIDADES_MEDIDA code with the symbol and name the request wrote it with. */
export interface Unit {
  code: number;
  symbol: string;
  name: string;
}
