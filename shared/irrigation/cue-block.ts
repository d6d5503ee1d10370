import { FarmIndex } from '../farms/farm-index';
import { CueKindMapping, CueMapResult } from '../records/record-kind';
import { cueNumber, valueProblems } from '../siex/cue-descriptor';
import { cropLocations, cropVarietyBlocks, farmProblems, oneLine } from '../siex/cue-mapping';
import { RIEGO_FIELDS } from './cue-fields';
import { irrigationOf, StoredIrrigation } from './stored-record';
import { cubicMetresOn } from './water-quantity';

/**
 * An irrigation as CUE `Riego` blocks (schema 3.11.4, `ActividadesExplotacion.Riego`; RD 1051/2022 art. 5): one block
 * per crop and variety of its locations (shared/siex/cue-mapping.ts), keyed by `typecrop~variety`; the records core
 * gives each key its `IdAjenaRiego` and keeps it. Every value is written in the form of the section's descriptor
 * (cue-fields.ts).
 *
 * `Cantidad` is a total in m3 (UNIDADES_MEDIDA 3; FEGA's Anexo V lists m3 and L for it): each block's is the water on
 * its DGCs' `Superficie`, water per hectare times their hectares, or the whole irrigation's water shared by area.
 */
const R = 'CUADERNO.ActividadesExplotacion.Riego';
const CANTIDAD = `${R}.Cantidad` as const;
/** UNIDADES_MEDIDA 3, m3. */
const CUBIC_METRES = 3;

const day = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
const hectaresOf = (block: { body: Record<string, unknown> }) =>
  (block.body.DGCs as { Superficie: number }[]).reduce((sum, d) => sum + d.Superficie, 0);

/** The record's blocks, or what SIEX requires that it lacks (it is then not sent, and the job says why). */
export function mapIrrigation(record: StoredIrrigation, farm: FarmIndex): CueMapResult {
  const i = irrigationOf(record);
  const missing = [...farmProblems(farm)];
  const entries = cropLocations(i.idcp, farm, missing);
  if (missing.length > 0) return { ok: false, missing };
  const body = {
    FechaInicio: day(i.start),
    FechaFin: day(i.end),
    SistemaRiego: i.system,
    UnidadMedida: CUBIC_METRES,
    ...(i.waterOrigins.length ? { OrigenAgua: i.waterOrigins.map((IdOrigenAgua) => ({ IdOrigenAgua })) } : {}),
    ...(i.energy !== null ? { TipoEnergia: i.energy } : {}),
    ...(i.meter !== null ? { NumContador: oneLine(i.meter) } : {}),
    ...(i.goodPractices.length ? { BuenasPracticasRiego: i.goodPractices.map((TipoBPR) => ({ TipoBPR })) } : {}),
  };
  const blocks = cropVarietyBlocks(entries, farm, { area: undefined, body });
  const total = blocks.reduce((sum, b) => sum + hectaresOf(b), 0);
  const sent = blocks.map(({ key, body: b }) => {
    const m3 = cubicMetresOn(record.water, hectaresOf({ body: b }), total);
    return { key, body: { ...b, Cantidad: m3 === undefined ? undefined : cueNumber(RIEGO_FIELDS, CANTIDAD, m3) } };
  });
  for (const { body: b } of sent) {
    const cantidad = b.Cantidad;
    if (cantidad === undefined) missing.push('the locations have no area to share the water by (DGCs Superficie)');
    else if (!(cantidad > 0))
      missing.push(`the water on a crop's locations rounds to 0 m3, below the 0.01 m3 Cantidad writes (number(8,2))`);
    else missing.push(...valueProblems(RIEGO_FIELDS, CANTIDAD, cantidad).map((p) => `water: ${p}`));
  }
  if (missing.length > 0) return { ok: false, missing: [...new Set(missing)] };
  return { ok: true, blocks: sent };
}

/** The irrigation as a record kind's CUE blocks: `Riego`, one per crop and variety. */
export const irrigationCue: CueKindMapping<StoredIrrigation> = {
  section: 'Riego',
  idAjena: 'IdAjenaRiego',
  fields: RIEGO_FIELDS,
  map: mapIrrigation,
};
