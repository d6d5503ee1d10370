import { PhytoRecord } from './wire-record';
import { formatClock, formatDate, parseDateTime } from '../domain/dates';
import { isHandHeld } from '../domain/equipment';
import { unitDimension } from '../domain/units';
import { FarmIndex } from '../farms/farm-index';
import { BlockIds } from '../records/block-ids';
import { withIdAjena } from '../records/cue-blocks';
import { CueKindMapping, CueMapResult } from '../records/record-kind';
import { cueNumber, valueProblems } from '../siex/cue-descriptor';
import { cropLocations, cropVarietyBlocks, farmProblems, oneLine } from '../siex/cue-mapping';
import { equipmentId, problems, registerNumberText, REGISTERED_PRODUCT } from '../plant-protection/part-cue';
import { TRATAMFITO_FIELDS } from './cue-fields';
import { StoredOtherMeasure } from './stored-request';

/**
 * A treatment as CUE `TratamFito` blocks (schema 3.11.4, FEGA, Anexo VI): one block per crop and variety of its
 * locations (shared/siex/cue-mapping.ts), each under the `IdAjenaTratamFito` the record keeps for that crop and
 * variety; the job still reports per record (shared/export/record-outcome.ts). Every value is written in the form of
 * the section's descriptor (cue-fields.ts).
 *
 * A record that lacks something SIEX requires is not sent: `mapRecord` says what is missing instead.
 */
export type TratamFito = Record<string, unknown> & { IdAjenaTratamFito: number };
type MapResult = { ok: true; blocks: TratamFito[] } | { ok: false; missing: string[] };

/** One thing an export would refuse a record for now: the job would settle it `MISSING_DATA` with this message. */
interface ExportBlocker {
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

/** The treated hectares the record states (`st` in `mst`, else `surface`); undefined when it covers its whole ground. */
function treatedHectares(record: PhytoRecord): number | undefined {
  const d = record.mst ? unitDimension(record.mst.symbol) : undefined;
  if (record.st && d?.measure === 'area' && d.per === null) return Number(record.st) * d.factor;
  return record.surface ? Number(record.surface) : undefined;
}

/**
 * The record's equipment, one `EquipoAplicador` per machine. The schema wants exactly one identifier per equipment
 * (shared/plant-protection/part-cue.ts, `equipmentId`). A machine is
 * applied by hand (`AplicacionManual`) when its UNE type is hand-held or a backpack, or when the record says the
 * application was manual (a lance from a tank): `manual` describes the machines, it is not equipment of its own, and
 * no identifier is ever made up for it.
 */
function equipment(record: PhytoRecord): Record<string, unknown>[] {
  return record.machine.map((m) => ({
    AplicacionManual: record.manual || isHandHeld(m.id),
    ...equipmentId(m),
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

/** A record's blocks, one per crop and variety, without their IdAjena; or what SIEX requires that the record lacks. */
function mapTreatment(record: PhytoRecord, farm: FarmIndex): CueMapResult {
  const missing = [...farmProblems(farm)];
  if (!record.infection) missing.push('infection (the pest, disease, weed or regulation treated: ProblematicaFito)');
  if (record.tj.length === 0) missing.push('tj (justification codes: Justificaciones)');
  if (!record.efficacy.id) missing.push('efficacy (Eficacia)');
  const applied = equipment(record);
  const equipmentMissing = equipmentProblem(record);
  if (equipmentMissing) missing.push(equipmentMissing);
  // Every product of the pass (the main one, then its mix) is a ProductosFito line with its own Dosis; a measure has
  // none (FEGA's descriptor: OtrasActuacionesFito excludes ProductosFito).
  const products = record.subtype
    ? [
        { label: 'dose', subtype: record.subtype, dose: record.dose, measure: record.measure },
        ...(record.mix ?? []).map((m, i) => ({ label: `mix[${i}].dose`, ...m })),
      ]
    : [];
  const measure = record.otherMeasure && otherMeasureBlock(record.otherMeasure, missing);
  if (products.length === 0 && !measure) missing.push('subtype (a product, or otherMeasure: ProductosFito)');
  const doses = products.map(({ label, dose: given }) => {
    const dose = cueNumber(TRATAMFITO_FIELDS, DOSIS, Number(given));
    if (!(dose > 0))
      missing.push(`${label} ${given} is below 0.001, the least Dosis the descriptor writes (number(8,3))`);
    else missing.push(...valueProblems(TRATAMFITO_FIELDS, DOSIS, dose).map((p) => `${label}: ${p}`));
    return dose;
  });
  const entries = cropLocations(record.idcp, farm, missing);
  const at = parseDateTime(record.dateApplication);
  if (!at) missing.push('dateApplication');
  if (missing.length > 0 || !at || !record.infection || products.some((p) => !p.measure)) return { ok: false, missing };

  // The descriptor writes days DD/MM/YYYY: the API's day with its other separator.
  const day = formatDate(at).replaceAll('-', '/');
  const applicator = { NumROPO: record.applicator.user.ropo };
  const treatment = {
    FechaInicio: day,
    FechaFin: day,
    HoraTratamiento: formatClock(at),
    ProblematicaFito: problems(record.infection, record.mix ?? []),
    Justificaciones: [...new Set(record.tj.map((t) => Number(t.id)))].map((JustAct) => ({ JustAct })),
    // The schema has one Unidad per product line, and the descriptor takes Dosis or Cantidad: the dose, in its unit.
    // A tank mix is one treatment with one line per product (FEGA's descriptor: ProductosFito lists the products).
    ...(measure
      ? { OtrasActuacionesFito: measure }
      : {
          ProductosFito: products.map((p, i) => ({
            TipoProducto: REGISTERED_PRODUCT,
            NumRegistro: registerNumberText(p.subtype.subtype.code),
            Dosis: doses[i],
            // Every product's measure was checked above: a record without one is not sent.
            Unidad: p.measure!.code,
          })),
        }),
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
  const stage = record.phenology ? { EstadoFenologico: Number(record.phenology.id) } : {};
  return {
    ok: true,
    blocks: cropVarietyBlocks(entries, farm, { area: treatedHectares(record), body: treatment, dgc: stage }),
  };
}

const MEASURE_CANTIDAD = 'CUADERNO.ActividadesExplotacion.TratamFito.OtrasActuacionesFito.Cantidad';

/**
 * A non-chemical measure as `OtrasActuacionesFito` (schema 3.11.4: one object per block; FEGA's descriptor, Anexo V:
 * Cantidad and Unidad obligatory, NumRegistroMDF for the registered means, BuenasPracticas voluntary). A quantity the
 * descriptor's two decimals would write as 0 is missing, not sent as nothing.
 */
function otherMeasureBlock(m: StoredOtherMeasure, missing: string[]): Record<string, unknown> {
  const quantity = cueNumber(TRATAMFITO_FIELDS, MEASURE_CANTIDAD, m.quantity);
  if (!(quantity > 0))
    missing.push(
      `otherMeasure.quantity ${m.quantity} is below 0.01, the least Cantidad the block writes (number(8,2))`,
    );
  return {
    TipoMedida: Number(m.id),
    Cantidad: quantity,
    Unidad: m.measure.code,
    ...(m.mdfRegistration ? { NumRegistroMDF: oneLine(m.mdfRegistration) } : {}),
    ...(m.goodPractice ? { BuenasPracticas: Number(m.goodPractice.id) } : {}),
  };
}

/** The treatment as a record kind's CUE blocks: `TratamFito`, one per crop and variety. */
export const treatmentCue: CueKindMapping<PhytoRecord> = {
  section: 'TratamFito',
  idAjena: 'IdAjenaTratamFito',
  fields: TRATAMFITO_FIELDS,
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
