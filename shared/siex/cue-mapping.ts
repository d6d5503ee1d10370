import { PhytoRecord } from '../api/phyto-schemas';
import { parseDateTime, ZONE } from '../domain/dates';
import { FarmIndex } from '../farms/farm-index';

/**
 * Maps stored records to the CUE exchange document of schema 3.11.4 (FEGA, Anexo VI): one CUADERNO item for the farm
 * with one `TratamFito` block per record. The schema puts the crop on each DGC (`CodigoCultivo`), so a record that
 * covers several crops needs no split: it becomes one block with one DGC per enclosure, each with its own crop, and
 * keeps one `IdAjenaTratamFito` (the record id) that SIEX uses to recognise the treatment on later amendments.
 *
 * A record that lacks something SIEX requires is not sent: `mapRecord` says what is missing instead.
 */
export type TratamFito = Record<string, unknown> & { IdAjenaTratamFito: number };
export type MapResult = { ok: true; block: TratamFito } | { ok: false; missing: string[] };

const PROBLEM_GROUP = {
  enfermedad: ['Enfermedades', 'TipoEnfermedad'],
  plaga: ['ArtropodosGasteropodos', 'TipoPlaga'],
  mala_hierba: ['MalasHierbas', 'TipoMalaHierba'],
  regulador: ['ReguladoresOtros', 'TipoRegulador'],
} as const;

/** TIPO_PRODFITO 1: a product of the official register (the only kind the gateway accepts). */
const REGISTERED_PRODUCT = 1;

/** The farm-level fields SIEX requires; a farm without a 14-character REA code cannot be exported at all. */
export function farmProblems(farm: FarmIndex): string[] {
  const missing: string[] = [];
  if (farm.meta.codigoRea.length !== 14) missing.push('the farm has no 14-character REA code (CodigoRea)');
  if (!/^\d{2}$/.test(farm.meta.communityCode))
    missing.push('the farm has no autonomous community code (CAExplotacion)');
  if (!farm.meta.ownerNif) missing.push('the farm has no holder NIF (IdTitular)');
  return missing;
}

/**
 * `ES-11179` → `11179`, `ES-02112` → `ES-02112`: the register number as the official register writes it. Legacy
 * numbers are five digits from 10000 (shared/catalog/register/code.ts), so a code starting with 0 is an ES- number.
 */
export function registerNumberText(code: string): string {
  const digits = code.slice(3);
  return digits.startsWith('0') ? code : digits;
}

/** SIEX's free-text fields match `^.*$`: no line breaks or other control characters, so they become spaces. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what SIEX's `^.*$` refuses
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
}

export function mapRecord(record: PhytoRecord, recordId: number, farm: FarmIndex): MapResult {
  const missing = [...farmProblems(farm)];
  if (!record.infection) missing.push('infection (the pest, disease, weed or regulation treated: ProblematicaFito)');
  if (record.tj.length === 0) missing.push('tj (justification codes: Justificaciones)');
  if (!record.efficacy.id) missing.push('efficacy (Eficacia)');
  // The treated area, when the record gives it, spread over the enclosures by their size; else each whole enclosure.
  const entries = record.idcp.map((id) => farm.byIdcp.get(Number(id)));
  const enclosuresArea = entries.reduce((sum, e) => sum + (e ? Number(e.dimension) : 0), 0);
  const share = record.surface && enclosuresArea > 0 ? Number(record.surface) / enclosuresArea : 1;
  const dgcs = entries.map((entry, i) => {
    const id = record.idcp[i];
    if (!entry) {
      missing.push(`idcp ${id} is no longer a crop location of the farm`);
      return null;
    }
    if (!entry.dgc) missing.push(`enclosure of idcp ${id} has no DGC code (CodigoDGC)`);
    const area = Math.round(Number(entry.dimension) * share * 10_000) / 10_000;
    return {
      CodigoDGC: Number(entry.dgc ?? 0),
      CodigoCultivo: Number(farm.cropOf(entry).typecropId),
      Superficie: area,
    };
  });
  const at = parseDateTime(record.dateApplication);
  if (!at) missing.push('dateApplication');
  if (missing.length > 0 || !at || !record.infection || !record.measure) return { ok: false, missing };

  const local = at.setZone(ZONE);
  const day = local.toFormat('dd/MM/yyyy');
  const [group, list] = PROBLEM_GROUP[record.infection.kind];
  const machine = record.machine[0];
  const block: TratamFito = {
    IdAjenaTratamFito: recordId,
    FechaInicio: day,
    FechaFin: day,
    HoraTratamiento: local.toFormat('HH:mm'),
    DGCs: dgcs,
    ProblematicaFito: { [group]: { [list]: [Number(record.infection.id)] } },
    Justificaciones: [...new Set(record.tj.map((t) => Number(t.id)))].map((JustAct) => ({ JustAct })),
    ProductosFito: [
      {
        TipoProducto: REGISTERED_PRODUCT,
        NumRegistro: registerNumberText(record.subtype.subtype.code),
        Dosis: Number(record.dose),
        Unidad: record.measure.code,
        ...(record.dt ? { Cantidad: Number(record.dt) } : {}),
      },
    ],
    IdentificadorAplicador: [
      {
        AplicadorEmpresa: { NumROPO: record.applicator.user.ropo },
        // The schema wants exactly one equipment identifier: the ROMA number when the machine is registered, else
        // its UNE type code as our own equipment id, else a manual application.
        EquipoAplicador: machine
          ? {
              AplicacionManual: false,
              ...(machine.roma ? { NumROMA: oneLine(machine.roma) } : { IdEquipoAplicador: machine.id }),
              TipoMaquinariaUNE: machine.id,
            }
          : { AplicacionManual: true, IdEquipoAplicador: 'MANUAL' },
      },
    ],
    Eficacia: Number(record.efficacy.id),
    ...(record.detail ? { Observaciones: oneLine(record.detail) } : {}),
  };
  return { ok: true, block };
}

/** The CUE document for one farm and a batch of mapped blocks. */
export function cueDocument(farm: FarmIndex, blocks: TratamFito[]): { CUADERNO: unknown[] } {
  return {
    CUADERNO: [
      {
        CAExplotacion: farm.meta.communityCode,
        IdTitular: farm.meta.ownerNif,
        CodigoRea: farm.meta.codigoRea,
        UnidadGestora: farm.meta.ownerNif,
        ActividadesExplotacion: { TratamFito: blocks },
      },
    ],
  };
}
