import { Machine } from '../domain/equipment';
import { SupplierId } from './fertilizer-supplier';

/**
 * A fertilization as the domain reads it: codes as numbers, days as ISO days, absent things as null. Its record's
 * fields map to it and back (record-fields.ts), and so does the wire body (wire-mapper.ts); nothing in the rules or
 * the CUE mapping reads the wire shape.
 */
export interface Content {
  code: number;
  percent: number;
}

export interface Fertilization {
  /** ISO days (Madrid); `end` is `start` when the request gave none. */
  start: string;
  end: string;
  idcp: number[];
  material: {
    code: number;
    name: string;
    nutrients: Content[];
    micronutrients: Content[];
    heavyMetals: Content[];
    treatment: number | null;
    supplier: { by: SupplierId; id: string; name: string } | null;
    productName: string | null;
    /** The commercial product as the request names it (DETALLE_MATERIAL_FERT); null: none named. */
    detail: number | null;
    /** kg/L. */
    density: number | null;
  };
  kind: number;
  method: number;
  dose: number;
  unit: Unit;
  /** Fertilized hectares as the request states them (text, as treatments keep theirs); null: all the locations. */
  surface: string | null;
  sludge: boolean;
  /** Sustainable input management (RD 1051/2022) as the request states it; null: the farm's. */
  sustainableInputs: boolean | null;
  goodPractices: number[];
  fertigation: {
    system: number;
    waterOrigins: number[];
    quantity: number | null;
    unit: Unit;
    nDose: number;
    nUnit: Unit;
    pDose: number;
    pUnit: Unit;
  } | null;
  /** The machine: a ROMA number, or the ERP's own reference and the UNE type. */
  machine: Machine | null;
  manual: boolean;
  detail: string | null;
  /** The names the request gave its codes, by the code's path (`kind`, `goodPractices.3`): echoed, never judged. */
  names: Record<string, string>;
}

/** A UNIDADES_MEDIDA code with the symbol and name the request wrote it with. */
export interface Unit {
  code: number;
  symbol: string;
  name: string;
}
