import { PhytoRecord } from '../phyto/wire-record';
import { formatClock, formatDate, parseDateTime } from '../domain/dates';
import { unitDimension } from '../domain/units';
import { cropKey, FarmIndex, IdcpEntry } from '../farms/farm-index';
import { areaShares } from '../farms/treated-area';
import { isHandHeld } from '../domain/equipment';
import { cueNumber, valueProblems } from './cue-descriptor';
import { BlockIds } from '../records/block-ids';
import { withIdAjena } from '../records/cue-blocks';
import { CueKindMapping, CueMapResult } from '../records/record-kind';

/**
 * Maps stored records to the CUE exchange document of schema 3.11.4 (FEGA, Anexo VI): one CUADERNO item for the farm
 * with `TratamFito` blocks. FEGA's field descriptor requires all DGCs of a block to share crop and variety, so a record
 * becomes one block per crop and variety of its locations, each under the `IdAjenaTratamFito` the record keeps for
 * that crop and variety (shared/records/block-ids.ts); the job still reports per record
 * (shared/export/record-outcome.ts).
 *
 * A record that lacks something SIEX requires is not sent: `mapRecord` says what is missing instead.
 */
export type TratamFito = Record<string, unknown> & { IdAjenaTratamFito: number };
export type MapResult = { ok: true; blocks: TratamFito[] } | { ok: false; missing: string[] };

/** One thing an export would refuse a record for now: the job would settle it `MISSING_DATA` with this message. */
export interface ExportBlocker {
  code: 'MISSING_DATA';
  message: string;
}

/**
 * What an export would refuse of the record today, by the very check the export worker makes (`mapRecord`), so that
 * what a record says of itself and what its export does cannot disagree. Empty: the record can be sent.
 */
export function exportBlockers(
  record: PhytoRecord,
  recordId: number,
  farm: FarmIndex,
  blockIds: BlockIds | null,
): ExportBlocker[] {
  const mapped = mapRecord(record, recordId, farm, blockIds);
  return mapped.ok ? [] : mapped.missing.map((message) => ({ code: 'MISSING_DATA', message }));
}

const DOSIS = 'CUADERNO.ActividadesExplotacion.TratamFito.ProductosFito.Dosis';

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
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what SIEX's `^.*$` refuses
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
}

/** The treated hectares the record states (`st` in `mst`, else `surface`); undefined when it covers its whole ground. */
function treatedHectares(record: PhytoRecord): number | undefined {
  const d = record.mst ? unitDimension(record.mst.symbol) : undefined;
  if (record.st && d?.measure === 'area' && d.per === null) return Number(record.st) * d.factor;
  return record.surface ? Number(record.surface) : undefined;
}

/**
 * The record's equipment, one `EquipoAplicador` per machine. The schema wants exactly one identifier per equipment:
 * the ROMA number of a registered machine; else the ERP's reference for it, or its UNE type and name. A machine is
 * applied by hand (`AplicacionManual`) when its UNE type is hand-held or a backpack, or when the record says the
 * application was manual (a lance from a tank): `manual` describes the machines, it is not equipment of its own, and
 * no identifier is ever made up for it.
 */
function equipment(record: PhytoRecord): Record<string, unknown>[] {
  return record.machine.map((m) => ({
    AplicacionManual: record.manual || isHandHeld(m.id),
    ...(m.roma ? { NumROMA: oneLine(m.roma) } : { IdEquipoAplicador: oneLine(m.ref || `${m.id} ${m.name}`) || m.id }),
    TipoMaquinariaUNE: m.id,
  }));
}

/** Why a record's equipment cannot be sent, if it cannot. */
function equipmentProblem(record: PhytoRecord): string | undefined {
  if (record.machine.length > 0) return undefined;
  return record.manual
    ? 'equipment: manual is true but no machine names the hand-held equipment (e.g. UNE type 060303013, a backpack sprayer, with its ref): SIEX needs its identifier (EquipoAplicador)'
    : 'equipment: no machine, and manual is not true (EquipoAplicador)';
}

type Infection = NonNullable<PhytoRecord['infection']>;

/**
 * `ProblematicaFito`: every problem the pass treats (the record's, and each mixed product's own), each once, in the
 * group of its kind.
 */
function problems(
  infection: Infection,
  mix: NonNullable<PhytoRecord['mix']>,
): Record<string, Record<string, number[]>> {
  const out: Record<string, Record<string, number[]>> = {};
  for (const { kind, id } of [infection, ...mix.map((m) => m.infection ?? infection)]) {
    const [group, list] = PROBLEM_GROUP[kind];
    const codes = (out[group] ??= { [list]: [] })[list]!;
    if (!codes.includes(Number(id))) codes.push(Number(id));
  }
  return out;
}

/** The locations of a record, by crop and variety (its block key), in the order the record first names each. */
export function byCropVariety(entries: IdcpEntry[], farm: FarmIndex): Map<string, IdcpEntry[]> {
  const groups = new Map<string, IdcpEntry[]>();
  for (const e of entries) {
    const crop = farm.cropOf(e);
    const key = cropKey(crop.typecropId, crop.code);
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  return groups;
}

/** The block keys of these locations (their crops and varieties), each once, in the order first named. */
export function blockKeysOf(idcps: readonly string[], farm: FarmIndex): string[] {
  const entries = idcps.flatMap((id) => farm.byIdcp.get(Number(id)) ?? []);
  return [...byCropVariety(entries, farm).keys()];
}

/** A record's blocks, one per crop and variety, without their IdAjena; or what SIEX requires that the record lacks. */
function mapTreatment(record: PhytoRecord, farm: FarmIndex): CueMapResult {
  const missing = [...farmProblems(farm)];
  if (!record.infection) missing.push('infection (the pest, disease, weed or regulation treated: ProblematicaFito)');
  if (record.tj.length === 0) missing.push('tj (justification codes: Justificaciones)');
  if (!record.efficacy.id) missing.push('efficacy (Eficacia)');
  const applied = equipment(record);
  const equipmentMissing = equipmentProblem(record);
  if (equipmentMissing) missing.push(equipmentMissing);
  // Every product of the pass (the main one, then its mix) is a ProductosFito line with its own Dosis.
  const products = [
    { label: 'dose', subtype: record.subtype, dose: record.dose, measure: record.measure },
    ...(record.mix ?? []).map((m, i) => ({ label: `mix[${i}].dose`, ...m })),
  ];
  const doses = products.map(({ label, dose: given }) => {
    const dose = cueNumber(DOSIS, Number(given));
    if (!(dose > 0))
      missing.push(`${label} ${given} is below 0.001, the least Dosis the descriptor writes (number(8,3))`);
    else missing.push(...valueProblems(DOSIS, dose).map((p) => `${label}: ${p}`));
    return dose;
  });
  const entries: IdcpEntry[] = [];
  for (const id of record.idcp) {
    const entry = farm.byIdcp.get(Number(id));
    if (!entry) missing.push(`idcp ${id} is no longer a crop location of the farm`);
    else {
      if (!entry.dgc) missing.push(`enclosure of idcp ${id} has no DGC code (CodigoDGC)`);
      entries.push(entry);
    }
  }
  const at = parseDateTime(record.dateApplication);
  if (!at) missing.push('dateApplication');
  if (missing.length > 0 || !at || !record.infection || products.some((p) => !p.measure)) return { ok: false, missing };

  const shares = areaShares(entries, treatedHectares(record));
  // The descriptor writes days DD/MM/YYYY: the API's day with its other separator.
  const day = formatDate(at).replaceAll('-', '/');
  const stage = record.phenology ? { EstadoFenologico: Number(record.phenology.id) } : {};
  const applicator = { NumROPO: record.applicator.user.ropo };
  const treatment = {
    FechaInicio: day,
    FechaFin: day,
    HoraTratamiento: formatClock(at),
    ProblematicaFito: problems(record.infection, record.mix ?? []),
    Justificaciones: [...new Set(record.tj.map((t) => Number(t.id)))].map((JustAct) => ({ JustAct })),
    // The schema has one Unidad per product line, and the descriptor takes Dosis or Cantidad: the dose, in its unit.
    // A tank mix is one treatment with one line per product (FEGA's descriptor: ProductosFito lists the products).
    ProductosFito: products.map((p, i) => ({
      TipoProducto: REGISTERED_PRODUCT,
      NumRegistro: registerNumberText(p.subtype.subtype.code),
      Dosis: doses[i],
      // Every product's measure was checked above: a record without one is not sent.
      Unidad: p.measure!.code,
    })),
    IdentificadorAplicador: applied.map((EquipoAplicador) => ({ AplicadorEmpresa: applicator, EquipoAplicador })),
    ...(record.advisor
      ? {
          AsesorValidacion: {
            NumROPO: record.advisor.ropo,
            Validacion: record.reviewed === '1',
            ...(record.recipe ? { Observaciones: oneLine(`Receta ${record.recipe}`) } : {}),
          },
        }
      : {}),
    Eficacia: Number(record.efficacy.id),
    ...(record.detail ? { Observaciones: oneLine(record.detail) } : {}),
  };
  const blocks = [...byCropVariety(entries, farm)].map(([key, group]) => ({
    key,
    body: {
      ...treatment,
      DGCs: group.map((e) => ({
        CodigoDGC: Number(e.dgc),
        CodigoCultivo: Number(farm.cropOf(e).typecropId),
        Superficie: shares.get(e.idcp) ?? 0,
        ...stage,
      })),
    },
  }));
  return { ok: true, blocks };
}

/** The treatment as a record kind's CUE blocks: `TratamFito`, one per crop and variety. */
export const treatmentCue: CueKindMapping<PhytoRecord> = {
  section: 'TratamFito',
  idAjena: 'IdAjenaTratamFito',
  map: mapTreatment,
};

/**
 * A record's `TratamFito` blocks, each under the IdAjena `blockIds` keeps for its crop and variety (null: a record
 * stored before they were kept, read as `legacyBlockIds`).
 */
export function mapRecord(
  record: PhytoRecord,
  recordId: number,
  farm: FarmIndex,
  blockIds: BlockIds | null = null,
): MapResult {
  return withIdAjena(treatmentCue, treatmentCue.map(record, farm), recordId, blockIds) as MapResult;
}

/**
 * The CUE document for one farm and a batch of mapped blocks, by the `ActividadesExplotacion` section each kind's
 * blocks go in (`TratamFito`, `Fertilizacion`).
 */
export function cueDocument(farm: FarmIndex, activities: Record<string, unknown[]>): { CUADERNO: unknown[] } {
  return {
    CUADERNO: [
      {
        CAExplotacion: farm.meta.communityCode,
        IdTitular: farm.meta.ownerNif,
        CodigoRea: farm.meta.codigoRea,
        UnidadGestora: farm.meta.ownerNif,
        ActividadesExplotacion: activities,
      },
    ],
  };
}
