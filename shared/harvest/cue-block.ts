import { FarmIndex } from '../farms/farm-index';
import { CueKindMapping, CueMapResult } from '../records/record-kind';
import { cueNumber, valueProblems } from '../siex/cue-descriptor';
import { cropLocations, cropVarietyBlocks, farmProblems } from '../siex/cue-mapping';
import { COSECHA_FIELDS } from './cue-fields';
import { Harvest } from './harvest';
import { harvestOf, StoredHarvest } from './stored-record';

/**
 * A harvest as one CUE `Cosecha` block (schema 3.11.4, `ActividadesExplotacion.Cosecha`). One block a record, every
 * location a line of its `DGCs`: the block states one quantity (`Cantidad`, `Unidad`), which a split by crop and
 * variety would have to divide with no source saying how, and the schema states no rule that a block be of one
 * variety. The product goes in each line (`ProductoCosechado`), as the schema places it.
 */
const C = 'CUADERNO.ActividadesExplotacion.Cosecha';
const CANTIDAD = `${C}.Cantidad` as const;

/** The one block key of a harvest: the core keeps its IdAjenaCosecha under it. */
export const HARVEST_BLOCK = 'harvest';

/** `CosechaSiega`: 1 a harvest, 0 a mowing (cue-fields.ts says why). */
const CUT_CODE = { harvest: 1, mowing: 0 } as const;

const day = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

function machinery(h: Harvest): Record<string, unknown> {
  const m = h.machine;
  if (!m) return {};
  return {
    Maquinaria: [
      {
        TipoMaquinariaUNE: m.une,
        PotenciaMaquinaria: m.power,
        UnidadesMedida: m.powerUnit.code,
        TipoEnergia: m.energy,
        NumRepeticiones: m.passes,
        Duracion: m.hours,
      },
    ],
  };
}

/** The record's block, or what SIEX requires that it lacks (it is then not sent, and the job says why). */
export function mapHarvest(record: StoredHarvest, farm: FarmIndex): CueMapResult {
  const h = harvestOf(record);
  const missing = [...farmProblems(farm)];
  const entries = cropLocations(h.idcp, farm, missing);
  const quantity = cueNumber(COSECHA_FIELDS, CANTIDAD, h.quantity);
  missing.push(...valueProblems(COSECHA_FIELDS, CANTIDAD, quantity).map((p) => `quantity: ${p}`));
  if (missing.length > 0) return { ok: false, missing };
  const lines = cropVarietyBlocks(entries, farm, { area: undefined, body: {}, dgc: { ProductoCosechado: h.product } });
  const body = {
    CosechaSiega: CUT_CODE[h.cut],
    FechaInicio: day(h.start),
    FechaFin: day(h.end),
    Cantidad: quantity,
    Unidad: h.unit.code,
    DGCs: lines.flatMap((b) => b.body.DGCs as unknown[]),
    ...(h.purposes.length ? { FinalidadCosecha: h.purposes.map((IdFinalidad) => ({ IdFinalidad })) } : {}),
    ...(h.residues.length ? { DestinoRestoVeg: h.residues.map((IdDestinoRest) => ({ IdDestinoRest })) } : {}),
    SemillasSiembra: h.seedForSowing,
    Plantas: h.plants,
    SinCosechado: h.notHarvested,
    DepositadoSuelo: h.leftOnSoil,
    ...machinery(h),
  };
  return { ok: true, blocks: [{ key: HARVEST_BLOCK, body }] };
}

/** The harvest as a record kind's CUE block: `Cosecha`, one per record. */
export const harvestCue: CueKindMapping<StoredHarvest> = {
  section: 'Cosecha',
  idAjena: 'IdAjenaCosecha',
  fields: COSECHA_FIELDS,
  map: mapHarvest,
};
