import { Fertilization } from './fertilization';
import { SupplierId } from './fertilizer-supplier';

/**
 * A fertilization's request as its record's pointer keeps it, format 1: the domain value as it was when fertilizations
 * began (issue 25). The kind's own type, so a change of the domain value is not a change of what is stored unnoticed:
 * the two assignments below stop compiling, and the new domain value is written as a new format, read beside this one.
 */
export interface StoredFertilizationRequest {
  start: string;
  end: string;
  idcp: number[];
  material: {
    code: number;
    name: string;
    nutrients: StoredContent[];
    micronutrients: StoredContent[];
    heavyMetals: StoredContent[];
    treatment: number | null;
    supplier: { by: SupplierId; id: string; name: string } | null;
    productName: string | null;
    /** Absent on pointers stored before the detail was taken (issue 35): none named. */
    detail?: number | null;
    density: number | null;
  };
  kind: number;
  method: number;
  dose: number;
  unit: StoredUnit;
  surface: string | null;
  sludge: boolean;
  /** Absent on pointers stored before the flag was taken (issue 35): the farm's. */
  sustainableInputs?: boolean | null;
  goodPractices: number[];
  fertigation: {
    system: number;
    waterOrigins: number[];
    quantity: number | null;
    unit: StoredUnit;
    nDose: number;
    nUnit: StoredUnit;
    pDose: number;
    pUnit: StoredUnit;
  } | null;
  machine: { une: string; name: string; roma: string; ref: string; inspection: string; registered?: string } | null;
  manual: boolean;
  detail: string | null;
  names: Record<string, string>;
}

interface StoredContent {
  code: number;
  percent: number;
}

interface StoredUnit {
  code: number;
  symbol: string;
  name: string;
}

/** A fertilization as its pointer keeps it: format 1 is the domain value field for field. */
export function storedRequestOf(f: Fertilization): StoredFertilizationRequest {
  return f;
}

/** A pointer's request (format 1, the only one) as the fertilization it stands for. */
export function fertilizationFromStored(stored: StoredFertilizationRequest): Fertilization {
  return {
    ...stored,
    material: { ...stored.material, detail: stored.material.detail ?? null },
    sustainableInputs: stored.sustainableInputs ?? null,
  };
}
