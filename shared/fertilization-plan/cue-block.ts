import { FarmIndex } from '../farms/farm-index';
import { CueKindMapping, CueMapResult } from '../records/record-kind';
import { cueNumber } from '../siex/cue-descriptor';
import { cropLocations, cropVarietyBlocks, farmProblems } from '../siex/cue-mapping';
import { PLAN_ABONADO_FIELDS } from './cue-fields';
import { planOf, StoredPlan } from './stored-record';

/**
 * A fertilization plan as CUE `PlanAbonado` blocks (schema 3.11.4, `ActividadesExplotacion.PlanAbonado`; RD 1051/2022
 * arts. 5.a and 6): one block per crop and variety of its locations, as every activity block of the gateway
 * (shared/siex/cue-mapping.ts), each with the plan's needs, yield target, previous crop and tool. Its `DGCs` name the
 * locations by code and crop, without area (the section has none: the plan's figures are per hectare). Every figure is
 * written in the form of the section's descriptor (cue-fields.ts).
 */
const P = 'CUADERNO.ActividadesExplotacion.PlanAbonado';

const day = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
const kgPerHa = (field: 'NecesidadUFN' | 'NecesidadUFP2O5' | 'NecesidadUFK2O' | 'ObjetivoProduccion', value: number) =>
  cueNumber(PLAN_ABONADO_FIELDS, `${P}.${field}`, value);

/** The record's blocks, or what SIEX requires that it lacks (it is then not sent, and the job says why). */
export function mapPlan(record: StoredPlan, farm: FarmIndex): CueMapResult {
  const p = planOf(record);
  const missing = [...farmProblems(farm)];
  const entries = cropLocations(p.idcp, farm, missing);
  if (missing.length > 0) return { ok: false, missing };
  const body = {
    NecesidadUFN: kgPerHa('NecesidadUFN', p.needs.n),
    NecesidadUFP2O5: kgPerHa('NecesidadUFP2O5', p.needs.p2o5),
    NecesidadUFK2O: kgPerHa('NecesidadUFK2O', p.needs.k2o),
    ObjetivoProduccion: kgPerHa('ObjetivoProduccion', p.yieldTarget),
    CultivoPrecedente: p.previousCrop,
    Herramienta: p.tool,
    FechaGeneracion: day(p.date),
  };
  return { ok: true, blocks: cropVarietyBlocks(entries, farm, { area: null, body }) };
}

/** The plan as a record kind's CUE blocks: `PlanAbonado`, one per crop and variety. */
export const planCue: CueKindMapping<StoredPlan> = {
  section: 'PlanAbonado',
  idAjena: 'IdAjenaPlan',
  fields: PLAN_ABONADO_FIELDS,
  map: mapPlan,
};
