import { FarmIndex } from '../farms/farm-index';
import { CueKindMapping, CueMapResult } from '../records/record-kind';
import { cueNumber, valueProblems } from '../siex/cue-descriptor';
import { cropLocations, cropVarietyBlocks, farmProblems, oneLine } from '../siex/cue-mapping';
import { FERTILIZACION_FIELDS } from './cue-fields';
import { Fertilization } from './fertilization';
import { isSewageSludge } from './material-kinds';
import { fertilizationOf, StoredFertilization } from './stored-record';

/**
 * A fertilization as CUE `Fertilizacion` blocks (schema 3.11.4, `ActividadesExplotacion.Fertilizacion`): one block per
 * crop and variety of its locations (shared/siex/cue-mapping.ts), keyed by `typecrop~variety`; the records core gives
 * each key its `IdAjenaFerti` and keeps it. Every value is written in the form of the section's descriptor
 * (cue-fields.ts).
 */

const F = 'CUADERNO.ActividadesExplotacion.Fertilizacion';
const DOSIS = `${F}.AplicacionMaterialFertilizante.Dosis` as const;
/** UNIDADES_MEDIDA 12, kg/L: the unit the request's density is in. */
const KG_PER_LITRE = 12;

const day = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

function material(f: Fertilization): Record<string, unknown> {
  const m = f.material;
  const supplierField = { nif: 'NifEmpresa', rega: 'REGA', nima: 'NIMA' } as const;
  return {
    Material: m.code,
    // The commercial product, one of the material's (checked, or found by name, at registration: fertilizer-detail.ts).
    ...(m.detail !== null ? { DetalleMaterial: m.detail } : {}),
    ...(m.supplier?.name ? { EmpresaSuministradora: oneLine(m.supplier.name) } : {}),
    ...(m.supplier ? { [supplierField[m.supplier.by]]: oneLine(m.supplier.id) } : {}),
    ...(m.treatment !== null ? { TratamientoEstiercoles: m.treatment } : {}),
    ...(m.nutrients.length
      ? { Macronutrientes: m.nutrients.map((n) => ({ TipoMacroN: n.code, Porcentaje: n.percent })) }
      : {}),
    ...(m.micronutrients.length
      ? { Micronutrientes: m.micronutrients.map((n) => ({ TipoMicroN: n.code, Porcentaje: n.percent })) }
      : {}),
    ...(m.heavyMetals.length
      ? { MetalesPesados: m.heavyMetals.map((n) => ({ TipoMetalP: n.code, Porcentaje: n.percent })) }
      : {}),
    ...(m.density !== null ? { Densidad: m.density, UnidadesMedida: KG_PER_LITRE } : {}),
  };
}

/** The one `EquipoAplicador` of a block: a registered machine by its ROMA number, else the ERP's reference or its type. */
function equipment(f: Fertilization): Record<string, unknown> {
  const m = f.machine;
  if (!m) return {};
  return {
    EquipoAplicador: {
      ...(m.roma
        ? { NumROMA: oneLine(m.roma) }
        : { IdEquipoAplicador: oneLine(m.ref || `${m.une} ${m.name}`) || m.une }),
      TipoMaquinariaUNE: m.une,
    },
  };
}

function fertigation(f: Fertilization): Record<string, unknown> {
  const g = f.fertigation;
  if (!g) return {};
  return {
    Fertirrigacion: {
      SistemaRiego: g.system,
      ...(g.quantity !== null
        ? { Cantidad: cueNumber(FERTILIZACION_FIELDS, `${F}.Fertirrigacion.Cantidad`, g.quantity) }
        : {}),
      Unidad: g.unit.code,
      ...(g.waterOrigins.length ? { OrigenAgua: g.waterOrigins.map((IdOrigenAgua) => ({ IdOrigenAgua })) } : {}),
      DosisN: cueNumber(FERTILIZACION_FIELDS, `${F}.Fertirrigacion.DosisN`, g.nDose),
      UnidadDosisN: g.nUnit.code,
      DosisP: cueNumber(FERTILIZACION_FIELDS, `${F}.Fertirrigacion.DosisP`, g.pDose),
      UnidadDosisP: g.pUnit.code,
    },
  };
}

/** The record's blocks, or what SIEX requires that it lacks (it is then not sent, and the job says why). */
export function mapFertilization(record: StoredFertilization, farm: FarmIndex): CueMapResult {
  const f = fertilizationOf(record);
  const missing = [...farmProblems(farm)];
  const entries = cropLocations(f.idcp, farm, missing);
  const dose = cueNumber(FERTILIZACION_FIELDS, DOSIS, f.dose);
  if (!(dose > 0)) missing.push(`dose ${f.dose} is below 0.001, the least Dosis the descriptor writes (number(8,3))`);
  else missing.push(...valueProblems(FERTILIZACION_FIELDS, DOSIS, dose).map((p) => `dose: ${p}`));
  // RD 1051/2022 via the CUE descriptor (block 9, field 5, Obligatorio): every block says whether the holding manages
  // its inputs sustainably. The record's own word, else the holding's; never guessed, as it bears on coupled aids
  // (RD 1048/2022).
  const sustainable = f.sustainableInputs ?? farm.meta.sustainableInputs;
  if (sustainable === undefined) {
    missing.push(
      'neither the record (sustainableInputs) nor the farm (the back office) says whether the holding manages its ' +
        'inputs sustainably under RD 1051/2022 (GestionSostInsu, required of every fertilization)',
    );
    return { ok: false, missing };
  }
  if (missing.length > 0) return { ok: false, missing };
  const body = {
    FechaInicio: day(f.start),
    FechaFin: day(f.end),
    GestionSostInsu: sustainable,
    BuenasPracticas: f.goodPractices.map((TipoBPF) => ({ TipoBPF })),
    MaterialFertilizante: material(f),
    AplicacionMaterialFertilizante: {
      ...(f.material.productName !== null ? { NombreProducto: oneLine(f.material.productName) } : {}),
      // The material says it, whatever a record stored before the flag was checked says (material-kinds.ts).
      AplicacionLodos: isSewageSludge(f.material.code),
      TipoFertilizacion: f.kind,
      MetodoFertilizacion: f.method,
      Dosis: dose,
      Unidad: f.unit.code,
    },
    ...equipment(f),
    ...fertigation(f),
  };
  const area = f.surface === null ? undefined : Number(f.surface);
  return { ok: true, blocks: cropVarietyBlocks(entries, farm, { area, body }) };
}

/** The fertilization as a record kind's CUE blocks: `Fertilizacion`, one per crop and variety. */
export const fertilizationCue: CueKindMapping<StoredFertilization> = {
  section: 'Fertilizacion',
  idAjena: 'IdAjenaFerti',
  fields: FERTILIZACION_FIELDS,
  map: mapFertilization,
};
