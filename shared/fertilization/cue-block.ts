import { FarmIndex, IdcpEntry } from '../farms/farm-index';
import { areaShares } from '../farms/treated-area';
import { cueNumber, valueProblems } from '../siex/cue-descriptor';
import { byCropVariety, farmProblems, oneLine } from '../siex/cue-mapping';
import { CueBlockBody, CueMapResult } from '../records/record-kind';
import { Fertilization } from './fertilization';
import { fertilizationOf, StoredFertilization } from './stored-record';

/**
 * A fertilization as CUE `Fertilizacion` blocks (schema 3.11.4, `ActividadesExplotacion.Fertilizacion`). As for
 * `TratamFito`, every DGC of a block shares crop and variety (FEGA's descriptor for TratamFito; the team's design has
 * every activity block follow it), so a record is one block per crop and variety of its locations, keyed by
 * `typecrop~variety`; the records core gives each key its `IdAjenaFerti` and keeps it. Every value is written in the
 * form of shared/siex/cue-descriptor.ts.
 */

const F = 'CUADERNO.ActividadesExplotacion.Fertilizacion';
const DOSIS = `${F}.AplicacionMaterialFertilizante.Dosis` as const;
/** UNIDADES_MEDIDA 12, kg/L: the unit the request's density is in. */
const KG_PER_LITRE = 12;

const day = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

function entriesOf(f: Fertilization, farm: FarmIndex, missing: string[]): IdcpEntry[] {
  const out: IdcpEntry[] = [];
  for (const idcp of f.idcp) {
    const entry = farm.byIdcp.get(idcp);
    if (!entry) missing.push(`idcp ${idcp} is no longer a crop location of the farm`);
    else {
      if (!entry.dgc) missing.push(`enclosure of idcp ${idcp} has no DGC code (CodigoDGC)`);
      out.push(entry);
    }
  }
  return out;
}

function material(f: Fertilization): Record<string, unknown> {
  const m = f.material;
  const supplierField = { nif: 'NifEmpresa', rega: 'REGA', nima: 'NIMA' } as const;
  return {
    Material: m.code,
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
      ...(g.quantity !== null ? { Cantidad: cueNumber(`${F}.Fertirrigacion.Cantidad`, g.quantity) } : {}),
      Unidad: g.unit.code,
      ...(g.waterOrigins.length ? { OrigenAgua: g.waterOrigins.map((IdOrigenAgua) => ({ IdOrigenAgua })) } : {}),
      DosisN: cueNumber(`${F}.Fertirrigacion.DosisN`, g.nDose),
      UnidadDosisN: g.nUnit.code,
      DosisP: cueNumber(`${F}.Fertirrigacion.DosisP`, g.pDose),
      UnidadDosisP: g.pUnit.code,
    },
  };
}

/** The record's blocks, or what SIEX requires that it lacks (it is then not sent, and the job says why). */
export function mapFertilization(record: StoredFertilization, farm: FarmIndex): CueMapResult {
  const f = fertilizationOf(record);
  const missing = [...farmProblems(farm)];
  const entries = entriesOf(f, farm, missing);
  const dose = cueNumber(DOSIS, f.dose);
  if (!(dose > 0)) missing.push(`dose ${f.dose} is below 0.001, the least Dosis the descriptor writes (number(8,3))`);
  else missing.push(...valueProblems(DOSIS, dose).map((p) => `dose: ${p}`));
  if (missing.length > 0) return { ok: false, missing };
  const shares = areaShares(entries, f.surface === null ? undefined : Number(f.surface));
  const body = {
    FechaInicio: day(f.start),
    FechaFin: day(f.end),
    BuenasPracticas: f.goodPractices.map((TipoBPF) => ({ TipoBPF })),
    MaterialFertilizante: material(f),
    AplicacionMaterialFertilizante: {
      ...(f.material.productName !== null ? { NombreProducto: oneLine(f.material.productName) } : {}),
      AplicacionLodos: f.sludge,
      TipoFertilizacion: f.kind,
      MetodoFertilizacion: f.method,
      Dosis: dose,
      Unidad: f.unit.code,
    },
    ...equipment(f),
    ...fertigation(f),
  };
  const blocks = [...byCropVariety(entries, farm)].map(([key, group]): { key: string; body: CueBlockBody } => {
    const crop = farm.cropOf(group[0]!);
    return {
      key,
      body: {
        ...body,
        DGCs: group.map((e) => ({
          CodigoDGC: Number(e.dgc),
          CodigoCultivo: Number(crop.typecropId),
          Superficie: shares.get(e.idcp) ?? 0,
        })),
      },
    };
  });
  return { ok: true, blocks };
}
