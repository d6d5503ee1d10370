import { formatDate } from '../domain/dates';
import { unitDimension } from '../domain/units';
import { FarmIndex } from '../farms/farm-index';
import { CueKindMapping, CueMapResult } from '../records/record-kind';
import { anyNumber, cueNumber, decimal, integer, sectionFields, valueProblems } from '../siex/cue-descriptor';
import { farmProblems } from '../siex/cue-mapping';
import { partBody, partFields, partMissing } from '../plant-protection/part-cue';
import { facilityOf, StoredFacilityTreatment } from './facility';

/**
 * A store and premises treatment as one CUE `TratamientosEdifInstalaciones` block (schema 3.11.4): the day, each
 * building treated (`Edificaciones`: its REA identifier, the volume in m3), and the product part
 * (shared/plant-protection/part-cue.ts). Each `ProductosFito` line states the dose in its unit (`Dosis`, `Unidad`):
 * the descriptor takes a dose or a total, never both.
 */
const S = 'TratamientosEdifInstalaciones';
const PATH = `CUADERNO.ActividadesExplotacion.${S}` as const;

/** The pests its `ProblematicaFito` has groups for: no MalasHierbas, no ReguladoresOtros. */
export const FACILITY_PESTS = ['enfermedad', 'plaga'] as const;

/** UNIDADES_MEDIDA 3, m3: the unit of `Edificaciones.Volumen` (RD 1311/2012 Anexo III B.f). */
const CUBIC_METRES = 3;

/**
 * The descriptor of the section (sources as shared/siex/cue-descriptor.ts names them): `IdEdificacion` is number(10),
 * as FEGA's REA structure gives the installation's identifier (research §4); the IdAjena the number(10) of every
 * IdAjena; `Volumen` and `Dosis` the formats of `TratamFito`'s Superficie and Dosis: the team's choice (DESIGN),
 * pending FEGA's sheet. `Unidad` is a number in the schema, written as an integer code.
 */
const FACILITY_FIELDS = sectionFields(S, {
  IdAjenaTratamEdif: integer('DESCRIPTOR', 10),
  'Edificaciones.IdEdificacion': integer('DESCRIPTOR', 10),
  'Edificaciones.Volumen': decimal(8, 2, 'DESIGN'),
  'Edificaciones.Unidad': anyNumber,
  ...partFields(FACILITY_PESTS),
  'ProductosFito.Dosis': decimal(8, 3, 'DESIGN'),
});

/** The one block key of a store treatment: the core keeps its IdAjenaTratamEdif under it. */
export const FACILITY_BLOCK = 'facility';

/** The record's block, or what SIEX requires that it lacks (it is then not sent, and the job says why). */
export function mapFacility(record: StoredFacilityTreatment, farm: FarmIndex): CueMapResult {
  const t = facilityOf(record);
  const missing = [...farmProblems(farm), ...partMissing(t)];
  const buildings = t.facilities.map((f, i) => {
    // Litres to m3: the dimension's factor is to litres.
    const m3 = (f.volume * (unitDimension(f.unit.symbol)?.factor ?? 1000)) / 1000;
    const volume = cueNumber(FACILITY_FIELDS, `${PATH}.Edificaciones.Volumen`, m3);
    missing.push(
      ...valueProblems(FACILITY_FIELDS, `${PATH}.Edificaciones.Volumen`, volume).map(
        (p) => `facilities[${i}].volume: ${p}`,
      ),
    );
    return { IdEdificacion: f.reaId, Volumen: volume, Unidad: CUBIC_METRES };
  });
  const amounts = [t.product, ...t.mix].map((p, i) => {
    const label = i === 0 ? 'dose' : `mix[${i - 1}].dose`;
    const dose = cueNumber(FACILITY_FIELDS, `${PATH}.ProductosFito.Dosis`, p.dose);
    if (!(dose > 0)) missing.push(`${label} ${p.dose} is below 0.001, the least Dosis the descriptor writes`);
    else
      missing.push(...valueProblems(FACILITY_FIELDS, `${PATH}.ProductosFito.Dosis`, dose).map((m) => `${label}: ${m}`));
    return { Dosis: dose, Unidad: p.unit.code };
  });
  if (missing.length > 0) return { ok: false, missing };
  const body = {
    Edificaciones: buildings,
    // The descriptor writes days DD/MM/YYYY: the API's day with its other separator.
    FechaActuacion: formatDate(t.appliedAt).replaceAll('-', '/'),
    ...partBody(t, amounts),
  };
  return { ok: true, blocks: [{ key: FACILITY_BLOCK, body }] };
}

/** The store treatment as a record kind's CUE block: `TratamientosEdifInstalaciones`, one per record. */
export const facilityCue: CueKindMapping<StoredFacilityTreatment> = {
  section: S,
  idAjena: 'IdAjenaTratamEdif',
  fields: FACILITY_FIELDS,
  map: mapFacility,
};
