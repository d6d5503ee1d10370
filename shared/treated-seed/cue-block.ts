import { formatDate } from '../domain/dates';
import { unitDimension } from '../domain/units';
import { FarmIndex } from '../farms/farm-index';
import { registerNumberText, REGISTERED_PRODUCT, totalLines } from '../plant-protection/part-cue';
import { CueKindMapping, CueMapResult } from '../records/record-kind';
import { cueNumber, day, decimal, flag, integer, sectionFields, text, valueProblems } from '../siex/cue-descriptor';
import { farmProblems, oneLine } from '../siex/cue-mapping';
import { StoredTreatedSeed, treatedSeedOf } from './treated-seed';

/**
 * A use of treated seed as one CUE `UsoSemillaTratada` block (schema 3.11.4): where it was treated (`Tratamiento`,
 * TIPO_TRATAMIENTO), the day, the crop sown (`Producto`, a PRODUCTOS code: FEGA's Anexo V, block 1.4, field 1,
 * "Cultivo — código del cultivo del catálogo SIEX"; the block has no other crop member, and the register number and
 * the substance have members of their own), the lot, the seed in kilograms (`Cantidad`), the products and the
 * efficacy. Its `ProductosFito` lines state the total amount of product used (`Cantidad` and `Unidad`, both required);
 * `Dosis` is left out, since one `Unidad` could not say the units of both.
 */
const S = 'UsoSemillaTratada';
const PATH = `CUADERNO.ActividadesExplotacion.${S}` as const;

/**
 * The descriptor of the section (sources as shared/siex/cue-descriptor.ts names them). FEGA's sheet is not held for it:
 * the IdAjena takes the number(10) FEGA gives every IdAjena; the codes and texts the schema's types; the amounts the
 * formats of `TratamFito`'s `Cantidad` (number(8,2)): the team's choice (DESIGN), pending FEGA's sheet.
 */
const TREATED_SEED_FIELDS = sectionFields(S, {
  IdAjenaSemillaTrat: integer('DESCRIPTOR', 10),
  Tratamiento: integer('SCHEMA_TYPE'),
  Fecha: day,
  Producto: integer('SCHEMA_TYPE'),
  NumeroLote: text('SCHEMA_TYPE'),
  Cantidad: decimal(8, 2, 'DESIGN'),
  'ProductosFito.TipoProducto': integer('SCHEMA_TYPE'),
  'ProductosFito.NumRegistro': text('SCHEMA_TYPE'),
  'ProductosFito.Cantidad': decimal(8, 2, 'DESIGN'),
  'ProductosFito.Unidad': integer('SCHEMA_TYPE'),
  Eficacia: integer('SCHEMA_TYPE'),
  Observaciones: text('SCHEMA_TYPE'),
  Borrar: flag,
});

/** The one block key of a treated seed: the core keeps its IdAjenaSemillaTrat under it. */
export const TREATED_SEED_BLOCK = 'seed';

/** The record's block, or what SIEX requires that it lacks (it is then not sent, and the job says why). */
export function mapTreatedSeed(record: StoredTreatedSeed, farm: FarmIndex): CueMapResult {
  const s = treatedSeedOf(record);
  const missing = farmProblems(farm);
  // `Eficacia` is required even of seed bought treated (schema 3.11.4).
  if (!s.efficacy) missing.push('efficacy (Eficacia)');
  const seedKg = s.quantity * (unitDimension(s.unit.symbol)?.factor ?? 1);
  const quantity = cueNumber(TREATED_SEED_FIELDS, `${PATH}.Cantidad`, seedKg);
  missing.push(...valueProblems(TREATED_SEED_FIELDS, `${PATH}.Cantidad`, quantity).map((p) => `quantity: ${p}`));
  const totals = totalLines(
    s.products.map((product, i) => ({ product, label: `products[${i}].dt` })),
    seedKg,
    { fields: TREATED_SEED_FIELDS, path: `${PATH}.ProductosFito.Cantidad` },
    'kilogram of seed',
  );
  missing.push(...totals.missing);
  if (missing.length > 0) return { ok: false, missing };
  const body = {
    Tratamiento: Number(s.treatment.code),
    // The descriptor writes days DD/MM/YYYY: the API's day with its other separator.
    Fecha: formatDate(s.usedAt).replaceAll('-', '/'),
    Producto: Number(s.crop.code),
    ...(s.lot ? { NumeroLote: oneLine(s.lot) } : {}),
    Cantidad: quantity,
    ...(s.products.length > 0
      ? {
          ProductosFito: s.products.map((p, i) => ({
            TipoProducto: REGISTERED_PRODUCT,
            NumRegistro: registerNumberText(p.code),
            ...totals.amounts[i],
          })),
        }
      : {}),
    Eficacia: Number(s.efficacy!.code),
    ...(s.detail ? { Observaciones: oneLine(s.detail) } : {}),
  };
  return { ok: true, blocks: [{ key: TREATED_SEED_BLOCK, body }] };
}

/** The treated seed as a record kind's CUE block: `UsoSemillaTratada`, one per record. */
export const treatedSeedCue: CueKindMapping<StoredTreatedSeed> = {
  section: S,
  idAjena: 'IdAjenaSemillaTrat',
  fields: TREATED_SEED_FIELDS,
  map: mapTreatedSeed,
};
