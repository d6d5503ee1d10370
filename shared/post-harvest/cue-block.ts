import { unitDimension } from '../domain/units';
import { FarmIndex } from '../farms/farm-index';
import { formatDate } from '../domain/dates';
import { CueKindMapping, CueMapResult } from '../records/record-kind';
import { cueNumber, decimal, integer, sectionFields, valueProblems } from '../siex/cue-descriptor';
import { farmProblems } from '../siex/cue-mapping';
import { partBody, partFields, partMissing, totalLines } from '../plant-protection/part-cue';
import { postHarvestOf, StoredPostHarvest } from './post-harvest';

/**
 * A post-harvest treatment as one CUE `TratamientosPostCosecha` block (schema 3.11.4): the day, the produce
 * (`ProductoVegetal`, a PROD_VEGETAL Id) and how much of it in kilograms (`Cantidad`), and the product part
 * (shared/plant-protection/part-cue.ts). Its `ProductosFito` lines have no `Dosis`: each states the total amount of
 * product used (`Cantidad`, required, with its `Unidad`).
 */
const S = 'TratamientosPostCosecha';
const PATH = `CUADERNO.ActividadesExplotacion.${S}` as const;

/** The pests its `ProblematicaFito` has groups for: no MalasHierbas. */
export const POST_HARVEST_PESTS = ['enfermedad', 'plaga', 'regulador'] as const;

/**
 * The descriptor of the section (sources as shared/siex/cue-descriptor.ts names them). FEGA's sheet is not held for it:
 * the IdAjena takes the number(10) FEGA gives every IdAjena; the amounts the formats of `TratamFito`'s `Cantidad`
 * (number(8,2)): the team's choice (DESIGN), pending FEGA's sheet.
 */
const POST_HARVEST_FIELDS = sectionFields(S, {
  IdAjenaTratamPostco: integer('DESCRIPTOR', 10),
  ...partFields(POST_HARVEST_PESTS),
  ProductoVegetal: integer('SCHEMA_TYPE'),
  Cantidad: decimal(8, 2, 'DESIGN'),
  'ProductosFito.Cantidad': decimal(8, 2, 'DESIGN'),
});

/** The one block key of a post-harvest treatment: the core keeps its IdAjenaTratamPostco under it. */
export const POST_HARVEST_BLOCK = 'postharvest';

/** The record's block, or what SIEX requires that it lacks (it is then not sent, and the job says why). */
export function mapPostHarvest(record: StoredPostHarvest, farm: FarmIndex): CueMapResult {
  const t = postHarvestOf(record);
  const missing = [...farmProblems(farm), ...partMissing(t)];
  const produceKg = t.produce.quantity * (unitDimension(t.produce.unit.symbol)?.factor ?? 1);
  const quantity = cueNumber(POST_HARVEST_FIELDS, `${PATH}.Cantidad`, produceKg);
  missing.push(
    ...valueProblems(POST_HARVEST_FIELDS, `${PATH}.Cantidad`, quantity).map((p) => `plantProduct.quantity: ${p}`),
  );
  const totals = totalLines(
    [t.product, ...t.mix].map((product, i) => ({ product, label: i === 0 ? 'dt' : `mix[${i - 1}].dt` })),
    produceKg,
    { fields: POST_HARVEST_FIELDS, path: `${PATH}.ProductosFito.Cantidad` },
    'kilogram or tonne of produce',
  );
  missing.push(...totals.missing);
  if (missing.length > 0) return { ok: false, missing };
  const body = {
    // The descriptor writes days DD/MM/YYYY: the API's day with its other separator.
    FechaActuacion: formatDate(t.appliedAt).replaceAll('-', '/'),
    ProductoVegetal: t.produce.id,
    Cantidad: quantity,
    ...partBody(t, totals.amounts),
  };
  return { ok: true, blocks: [{ key: POST_HARVEST_BLOCK, body }] };
}

/** The post-harvest treatment as a record kind's CUE block: `TratamientosPostCosecha`, one per record. */
export const postHarvestCue: CueKindMapping<StoredPostHarvest> = {
  section: S,
  idAjena: 'IdAjenaTratamPostco',
  fields: POST_HARVEST_FIELDS,
  map: mapPostHarvest,
};
