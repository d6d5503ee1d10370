import { FarmIndex } from '../farms/farm-index';
import { CueKindMapping, CueMapResult } from '../records/record-kind';
import { cropLocations, farmProblems, oneLine } from '../siex/cue-mapping';
import { Soil } from './analysis';
import { ANALITICA_FIELDS } from './cue-fields';
import { analysisOf, StoredAnalysis } from './stored-record';

/**
 * An analysis as one CUE `Analitica` block (schema 3.11.4, `ActividadesExplotacion.Analitica`): one report is one
 * block, its `DGCs` the locations sampled (code and crop; the section has no area). FEGA's rule that a block's DGCs
 * share crop and variety is stated for `TratamFito`, and a sample of several crops' ground is one analysis, so it is
 * not split. A water analysis sends no DGCs (the member is optional).
 */
export const ANALYSIS_BLOCK = 'analysis';

const day = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

const SOIL_FIELDS = {
  organicMatter: 'MateriaOrganica',
  sand: 'Arena',
  silt: 'Limo',
  clay: 'Arcilla',
  ph: 'Ph',
  phosphorus: 'FosforoAsimilable',
  potassium: 'PotasioAsimilable',
  nitrogen: 'NitrogenoTotal',
  conductivity: 'Conductividad',
} as const satisfies Record<keyof Soil, string>;

function soilOf(soil: Soil): Record<string, number> {
  return Object.fromEntries(
    (Object.keys(SOIL_FIELDS) as (keyof Soil)[]).flatMap((k) => (soil[k] === null ? [] : [[SOIL_FIELDS[k], soil[k]]])),
  );
}

/** The record's block, or what SIEX requires that it lacks (it is then not sent, and the job says why). */
export function mapAnalysis(record: StoredAnalysis, farm: FarmIndex): CueMapResult {
  const a = analysisOf(record);
  const missing = [...farmProblems(farm)];
  const entries = cropLocations(a.idcp, farm, missing);
  if (missing.length > 0) return { ok: false, missing };
  const body = {
    MaterialAnalizado: a.material,
    Fecha: day(a.date),
    ...(a.laboratory ? { Laboratorio: oneLine(a.laboratory.name), Nif: oneLine(a.laboratory.nif) } : {}),
    ...(a.report !== null ? { NumBoletin: oneLine(a.report) } : {}),
    ...(a.analyses.length ? { TiposAnalisis: a.analyses.map((TipoAnalisis) => ({ TipoAnalisis })) } : {}),
    ...(a.substances.length ? { TiposSustancias: a.substances.map((TipoSustancia) => ({ TipoSustancia })) } : {}),
    ...(a.soil ? { ParametrosSuelo: soilOf(a.soil) } : {}),
    ...(entries.length
      ? {
          DGCs: entries.map((e) => ({
            CodigoDGC: Number(e.dgc),
            CodigoCultivo: Number(farm.cropOf(e).typecropId),
          })),
        }
      : {}),
  };
  return { ok: true, blocks: [{ key: ANALYSIS_BLOCK, body }] };
}

/** The analysis as a record kind's CUE block: `Analitica`, one per report. */
export const analysisCue: CueKindMapping<StoredAnalysis> = {
  section: 'Analitica',
  idAjena: 'IdAjenaAna',
  fields: ANALITICA_FIELDS,
  map: mapAnalysis,
};
