/**
 * An analysis as the domain reads it (RD 1051/2022 arts. 5.b and 6: the soil data the fertilization plan rests on;
 * RD 1311/2012 art. 16.3: residue analyses kept): codes as numbers, the day as an ISO day, absent things as null.
 */
export interface Analysis {
  /** ISO day (Madrid) of the sample. */
  date: string;
  /** Crop locations sampled; empty only for a water analysis. */
  idcp: number[];
  /** MATERIAL_ANALIZADO. */
  material: number;
  /** TIPO_ANALISIS. */
  analyses: number[];
  /** SUST_ACTIVAS, for a residue analysis. */
  substances: number[];
  laboratory: { name: string; nif: string } | null;
  /** The report's number (CUE `NumBoletin`). */
  report: string | null;
  soil: Soil | null;
  detail: string | null;
  /** The names the request gave its codes, by the code's path: echoed, never judged. */
  names: Record<string, string>;
}

/** Soil parameters as the report gives them, in the units the interface states; null: not given. */
export interface Soil {
  organicMatter: number | null;
  sand: number | null;
  silt: number | null;
  clay: number | null;
  ph: number | null;
  phosphorus: number | null;
  potassium: number | null;
  nitrogen: number | null;
  conductivity: number | null;
}
