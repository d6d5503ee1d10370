import { ReferenceData } from '../catalog/reference-data';
import { FarmIndex, IdcpEntry } from '../farms/farm-index';
import { locationsArea } from '../farms/treated-area';
import { NutrientInput } from '../rules/nutrient-balance';
import { NUTRIENT } from './material-requirements';
import { nutrientKgPerHa } from './nitrogen';
import { fertilizationOf, StoredFertilization } from './stored-record';

/**
 * What a stored fertilization brought each of its locations, for the nutrient balance (shared/rules/nutrient-balance.ts),
 * in kg per hectare of the location: N as the record was judged (its `nitrogen`, nitrogen.ts), P2O5 and K2O from the
 * material's P2O5 total and K2O contents (MACRONUTRIENTES 6 and 9, the label's or the analysis' figures the record
 * states: RD 1051/2022 Anexo III asks for them), each times the dose. A record on part of its ground (`surface` below
 * its locations' area) brought each location its dose on that share of it, as the 170 kg N/ha rule counts it
 * (shared/farms/treated-area.ts): a dose of 100 kg N/ha on 1 ha of a 2 ha location is 50 kg N/ha of the location.
 * What fertigation water carried beside the material (`nDose`, `pDose`) is the material's own nutrients dissolved, not
 * counted twice.
 */
export function nutrientInputs(
  record: StoredFertilization,
  farm: FarmIndex,
  reference: ReferenceData,
): NutrientInput[] {
  const f = fertilizationOf(record);
  const entries = f.idcp.map((idcp) => farm.byIdcp.get(idcp)).filter((e): e is IdcpEntry => e !== undefined);
  const ground = locationsArea(entries);
  const share = f.surface === null || ground <= 0 ? 1 : Math.min(1, Math.max(0, Number(f.surface)) / ground);
  const kg = (nutrient: number) => {
    const perHa = nutrientKgPerHa(f, reference.codes.units, nutrient);
    return perHa === null || perHa === undefined ? null : perHa * share;
  };
  const p2o5 = kg(NUTRIENT.p2o5Total);
  const k2o = kg(NUTRIENT.k2o);
  return entries.map((e) => ({
    farm: farm.meta.farmId,
    idcp: e.idcp,
    record: record.id,
    date: f.start,
    n: record.nitrogen.kgPerHa * share,
    p2o5,
    k2o,
  }));
}
