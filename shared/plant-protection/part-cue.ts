import { Machine } from '../domain/equipment';
import { PestKind } from '../domain/pest-kind';
import { CueField, day, flag, integer, text } from '../siex/cue-descriptor';
import { oneLine } from '../siex/cue-mapping';
import { ProductPart } from './product-part';

/**
 * The product part of a treatment in the CUE (schema 3.11.4, FEGA Anexo VI): what `TratamFito`,
 * `TratamientosPostCosecha` and `TratamientosEdifInstalaciones` write alike of the products, the problem, the
 * justification, the applicator, the advisor and the efficacy; each treatment kind's block adds what it treats.
 */

/** `ProblematicaFito`'s group and list for each kind of pest (TratamFito has all four; the others fewer). */
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
