/**
 * A harvest (or a mowing) as the domain reads it: codes as numbers, days as ISO days (Madrid), absent things as null.
 * The wire body maps to it and back (wire-mapper.ts, through stored-record.ts); the rules and the CUE block read only
 * this.
 */
export interface Harvest {
  /** ISO days; `end` is `start` when the request gave none. */
  start: string;
  end: string;
  idcp: number[];
  quantity: number;
  unit: Unit;
  /** PROD_VEGETAL `Id`: the produce harvested (CUE `ProductoCosechado`). */
  product: number;
  /** DEST_COSECHA codes (CUE `FinalidadCosecha`). */
  purposes: number[];
  /** DEST_RES_VEG codes (CUE `DestinoRestoVeg`). */
  residues: number[];
  cut: HarvestCut;
  seedForSowing: boolean;
  plants: boolean;
  notHarvested: boolean;
  leftOnSoil: boolean;
  machine: HarvestMachine | null;
  detail: string | null;
  /** The names the request gave its codes, by the code's path (`product`, `purpose.3`): echoed, never judged. */
  names: Record<string, string>;
}

/** A harvest of the crop's produce, or a mowing (CUE `CosechaSiega`). */
export type HarvestCut = 'harvest' | 'mowing';

/** A UNIDADES_MEDIDA code with the symbol and name the request wrote it with. */
export interface Unit {
  code: number;
  symbol: string;
  name: string;
}

/** The machine of a harvest, with everything CUE `Cosecha.Maquinaria` requires of one. */
interface HarvestMachine {
  /** TIPO_MAQUINA_UNE code. */
  une: string;
  name: string;
  power: number;
  /** UNIDADES_MEDIDA: CV (40) or kW (41). */
  powerUnit: Unit;
  /** TIPENERGIA code. */
  energy: number;
  passes: number;
  /** Hours of work. */
  hours: number;
}
