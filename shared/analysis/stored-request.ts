import { Analysis } from './analysis';

/**
 * An analysis's request as its record's pointer keeps it, format 1: the domain value as it was when analyses began
 * (issue 35). The kind's own type, so a change of the domain value is not a change of what is stored unnoticed: the
 * two assignments below stop compiling, and the new domain value is written as a new format, read beside this one.
 */
export interface StoredAnalysisRequest {
  date: string;
  idcp: number[];
  material: number;
  analyses: number[];
  substances: number[];
  laboratory: { name: string; nif: string } | null;
  report: string | null;
  soil: {
    organicMatter: number | null;
    sand: number | null;
    silt: number | null;
    clay: number | null;
    ph: number | null;
    phosphorus: number | null;
    potassium: number | null;
    nitrogen: number | null;
    conductivity: number | null;
  } | null;
  detail: string | null;
  names: Record<string, string>;
}

/** An analysis as its pointer keeps it: format 1 is the domain value field for field. */
export function storedRequestOf(a: Analysis): StoredAnalysisRequest {
  return a;
}

/** A pointer's request (format 1, the only one) as the analysis it stands for. */
export function analysisFromStored(stored: StoredAnalysisRequest): Analysis {
  return stored;
}
