import { Machine } from '../domain/equipment';
import { unitDimension } from '../domain/units';
import { PestKind } from '../domain/pest-kind';
import { CueField, CueFields, cueNumber, day, flag, integer, text, valueProblems } from '../siex/cue-descriptor';
import { oneLine } from '../siex/cue-mapping';
import { ProductDose, ProductPart } from './product-part';

/**
 * The product part of a treatment in the CUE (schema 3.11.4, FEGA Anexo VI): what the blocks of the treatment kinds
 * write alike of the products, the problem, the justification, the applicator, the advisor and the efficacy; each
 * treatment kind's block adds what it treats.
 */

/** `ProblematicaFito`'s group and list for each kind of pest (a block takes all four, or fewer). */
const PROBLEM_GROUP = {
  enfermedad: ['Enfermedades', 'TipoEnfermedad'],
  plaga: ['ArtropodosGasteropodos', 'TipoPlaga'],
  mala_hierba: ['MalasHierbas', 'TipoMalaHierba'],
  regulador: ['ReguladoresOtros', 'TipoRegulador'],
} as const satisfies Record<PestKind, readonly [string, string]>;

/** TIPO_PRODFITO 1: a product of the official register (the only kind the gateway accepts). */
export const REGISTERED_PRODUCT = 1;

/**
 * `ES-11179` → `11179`, `ES-02112` → `ES-02112`: the register number as the official register writes it. Legacy
 * numbers are five digits from 10000 (shared/catalog/register/code.ts), so a code starting with 0 is an ES- number.
 */
export function registerNumberText(code: string): string {
  const digits = code.slice(3);
  return digits.startsWith('0') ? code : digits;
}

interface CodedPest {
  kind: PestKind;
  id: string;
}

/**
 * `ProblematicaFito`: every problem the pass treats (the record's, and each mixed product's own), each once, in the
 * group of its kind.
 */
export function problems(
  infection: CodedPest,
  mix: readonly { infection?: CodedPest | null }[],
): Record<string, Record<string, number[]>> {
  const out: Record<string, Record<string, number[]>> = {};
  for (const { kind, id } of [infection, ...mix.map((m) => m.infection ?? infection)]) {
    const [group, list] = PROBLEM_GROUP[kind];
    const codes = (out[group] ??= { [list]: [] })[list]!;
    if (!codes.includes(Number(id))) codes.push(Number(id));
  }
  return out;
}

/**
 * The one identifier SIEX wants of an equipment (`EquipoAplicador`, oneOf NumROMA, NumREGANIP, IdEquipoAplicador): the
 * ROMA number of a registered machine; else the ERP's reference for it, or its UNE type and name. None is made up.
 */
export function equipmentId(m: { id: string; name: string; roma: string; ref: string }): Record<string, string> {
  return m.roma ? { NumROMA: oneLine(m.roma) } : { IdEquipoAplicador: oneLine(m.ref || `${m.id} ${m.name}`) || m.id };
}

/**
 * What SIEX requires of the product part that a record may lack until it is exported (the pest, the justifications,
 * the efficacy, a machine: `EquipoAplicador` is required, and these blocks have no `AplicacionManual`), as the job
 * would say it.
 */
export function partMissing(t: ProductPart): string[] {
  const missing: string[] = [];
  if (!t.infection) missing.push('infection (the pest or disease treated: ProblematicaFito)');
  if (!t.justifications?.length) missing.push('tj (justification codes: Justificaciones)');
  if (!t.efficacy) missing.push('efficacy (Eficacia)');
  if (!t.machines?.length)
    missing.push(
      'machine: SIEX needs the equipment (EquipoAplicador: its ROMA number, or its ref); a hand application names its hand-held equipment',
    );
  return missing;
}

/** UNIDADES_MEDIDA 5 kg and 4 L: the units a total derived from a dose per kilogram of what was treated is stated in. */
const TOTAL_UNIT = { mass: 5, volume: 4 } as const;

/**
 * A product's total amount (`ProductosFito.Cantidad` with its `Unidad`, required where a block's lines state totals):
 * the one the request gave (`dt` in `mdt`), else the dose times the kilograms treated (produce, seed) when the dose is
 * per mass (kg/t, kg/kg, L/kg, ml/kg: UNIDADES_MEDIDA 13, 38, 39, 52), in kg or L. A dose per hL of mixture or per m3
 * says nothing of the total, so such a record must give it.
 */
function totalAmount(p: ProductDose, treatedKg: number): { value: number; unit: number } | undefined {
  if (p.total) return { value: Number(p.total.value), unit: p.total.unit.code };
  const d = unitDimension(p.unit.symbol);
  if (d?.per !== 'mass' || (d.measure !== 'mass' && d.measure !== 'volume')) return undefined;
  return { value: p.dose * d.factor * treatedKg, unit: TOTAL_UNIT[d.measure] };
}

/**
 * Each product's `ProductosFito` amounts where a block's lines state totals (`Cantidad` with its `Unidad`, in the
 * format of the descriptor's field at `path`), from `totalAmount`; what is missing or out of format is said under the
 * product's `label` (`dt`, `mix[0].dt`), `per` naming what a dose would have to be per ("kilogram of seed").
 */
export function totalLines(
  products: readonly { product: ProductDose; label: string }[],
  treatedKg: number,
  descriptor: { fields: CueFields; path: string },
  per: string,
): { amounts: ProductAmounts[]; missing: string[] } {
  const missing: string[] = [];
  const { fields, path } = descriptor;
  const amounts = products.map(({ product: p, label }): ProductAmounts => {
    const amount = totalAmount(p, treatedKg);
    if (!amount) {
      missing.push(
        `${label}: the total amount of ${p.code} used (ProductosFito.Cantidad): give it in dt and mdt, or a dose per ${per}`,
      );
      return {};
    }
    const value = cueNumber(fields, path, amount.value);
    if (!(value > 0)) missing.push(`${label}: ${amount.value} is below 0.01, the least Cantidad the descriptor writes`);
    else missing.push(...valueProblems(fields, path, value).map((m) => `${label}: ${m}`));
    return { Cantidad: value, Unidad: amount.unit };
  });
  return { amounts, missing };
}

/** One `ProductosFito` line's amounts (Dosis, Cantidad) and their `Unidad`, as the kind's block states them. */
export type ProductAmounts = Record<string, number>;

/**
 * The block's members of the product part, once `partMissing` found nothing missing: the problem, justifications,
 * one `ProductosFito` line per product of the pass (main then mix, its amounts as the kind's `amounts` gives them),
 * the applicator with each machine (the non-field shape, §1.10 of the research: no AplicacionManual, no
 * TipoMaquinariaUNE), the advisor (voluntary in these blocks), the efficacy and the detail.
 */
export function partBody(t: ProductPart, amounts: readonly ProductAmounts[]): Record<string, unknown> {
  const infection = { kind: t.infection!.kind, id: t.infection!.code };
  const mixPests = t.mix.map((m) => ({ infection: m.infection && { kind: m.infection.kind, id: m.infection.code } }));
  const products = [t.product, ...t.mix];
  const applicator = { NumROPO: t.applicator.ropo };
  return {
    ProblematicaFito: problems(infection, mixPests),
    Justificaciones: [...new Set((t.justifications ?? []).map((j) => Number(j.code)))].map((JustAct) => ({ JustAct })),
    ProductosFito: products.map((p, i) => ({
      TipoProducto: REGISTERED_PRODUCT,
      NumRegistro: registerNumberText(p.code),
      ...amounts[i],
    })),
    IdentificadorAplicador: (t.machines ?? []).map((m: Machine) => ({
      AplicadorEmpresa: applicator,
      EquipoAplicador: equipmentId({ id: m.une, name: m.name, roma: m.roma, ref: m.ref }),
    })),
    ...(t.advisor ? { AsesorValidacion: { NumROPO: t.advisor.ropo } } : {}),
    Eficacia: Number(t.efficacy!.code),
    ...(t.detail ? { Observaciones: oneLine(t.detail) } : {}),
  };
}

/**
 * The descriptor of the product part's members in a non-field block (keys relative to the block), with the
 * `ProblematicaFito` groups the block has; sources as shared/siex/cue-descriptor.ts names them. The amounts of
 * `ProductosFito` are the kind's own (which of Dosis and Cantidad the block has).
 */
export function partFields(pests: readonly PestKind[]): Record<string, CueField> {
  return {
    FechaActuacion: day,
    ...Object.fromEntries(
      pests.map((kind) => {
        const [group, list] = PROBLEM_GROUP[kind];
        return [`ProblematicaFito.${group}.${list}`, integer('SCHEMA_TYPE')];
      }),
    ),
    'Justificaciones.JustAct': integer('SCHEMA_TYPE'),
    'ProductosFito.TipoProducto': integer('SCHEMA_TYPE'),
    'ProductosFito.NumRegistro': text('SCHEMA_TYPE'),
    'ProductosFito.Unidad': integer('SCHEMA_TYPE'),
    'IdentificadorAplicador.AplicadorEmpresa.NumROPO': text('SCHEMA_TYPE'),
    'IdentificadorAplicador.EquipoAplicador.NumROMA': text('SCHEMA_TYPE'),
    'IdentificadorAplicador.EquipoAplicador.IdEquipoAplicador': text('SCHEMA_TYPE', { minLength: 1 }),
    'AsesorValidacion.NumROPO': text('SCHEMA_TYPE'),
    Eficacia: integer('SCHEMA_TYPE'),
    Observaciones: text('SCHEMA_TYPE'),
    Borrar: flag,
  };
}
