import { Harvest } from './harvest';

/**
 * A harvest's request as its record's pointer keeps it, format 1: the domain value as it was when harvests began
 * (issue 34). The kind's own type, so a change of the domain value is not a change of what is stored unnoticed: the
 * two assignments below stop compiling, and the new domain value is written as a new format, read beside this one.
 */
export interface StoredHarvestRequest {
  start: string;
  end: string;
  idcp: number[];
  quantity: number;
  unit: { code: number; symbol: string; name: string };
  product: number;
  purposes: number[];
  residues: number[];
  cut: 'harvest' | 'mowing';
  seedForSowing: boolean;
  plants: boolean;
  notHarvested: boolean;
  leftOnSoil: boolean;
  machine: {
    une: string;
    name: string;
    power: number;
    powerUnit: { code: number; symbol: string; name: string };
    energy: number;
    passes: number;
    hours: number;
  } | null;
  detail: string | null;
  names: Record<string, string>;
}

/** A harvest as its pointer keeps it: format 1 is the domain value field for field. */
export function storedRequestOf(h: Harvest): StoredHarvestRequest {
  return h;
}

/** A pointer's request (format 1, the only one) as the harvest it stands for. */
export function harvestFromStored(stored: StoredHarvestRequest): Harvest {
  return stored;
}
