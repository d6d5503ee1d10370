import type { DateTime } from 'luxon';
import type { Machine } from '../domain/equipment';
import type { PestKind } from '../domain/pest-kind';

/**
 * A phytosanitary treatment as the rules read it: one pass of a tank over crop locations, its product and what was
 * mixed with it, who applied it and who advised it, why, how well, with what. Amounts the record echoes keep every
 * digit they were given (decimal text); what the request did not say is null, so the record and the history show it
 * as it was said. Mapped from a request (stored-request.ts; the wire's mapper, wire-mapper.ts) and back.
 */
export interface Treatment {
  /** When the pass was made (Madrid). */
  appliedAt: DateTime;
  product: ProductDose;
  /** The further products of the tank, in the request's order; empty: one product alone. */
  mix: ProductDose[];
  idcp: number[];
  applicator: { nif: string; ropo: string };
  /** The advisor who validated or recommended it, by ROPO card; the NIF when the request gave it. */
  advisor: { ropo: string; nif: string | null } | null;
  /** The pest the pass is against; a product of the mix may name its own. */
  infection: Pest | null;
  /** JUSTIFICACION_ACTUACION codes. */
  justifications: Coded[] | null;
  /** EFICACIA_TRATAMIENTO: often reported after the pass. */
  efficacy: (Coded & { detail: string }) | null;
  machines: Machine[] | null;
  manual: boolean | null;
  /** EST_FENOLOGICO: the crop's stage. */
  phenology: Coded | null;
  detail: string | null;
  /** Litres of spray mixture prepared for the treated area. */
  soup: string | null;
  /** The treated area as measured, in an area unit (`st` in `mst`). */
  area: Amount | null;
  /** The treated area in hectares. */
  surface: string | null;
  preventive: boolean | null;
  distributed: boolean | null;
  reviewed: boolean | null;
  pp: string | null;
  speed: string | null;
  recipe: string | null;
}

/** A product of the pass at its dose: the record's main product, or one of its mix. */
export interface ProductDose {
  /** The register's code, `ES-11179`. */
  code: string;
  /** The commercial name the request gave (the record shows the register's). */
  name: string;
  dose: number;
  unit: Unit;
  /** The total amount applied. */
  total: Amount | null;
  batch: string | null;
  /** The pest a product of the mix is applied against; null: the pass's (always, for the main product). */
  infection: Pest | null;
}

/** A UNIDADES_MEDIDA code with the symbol and name the request wrote it with. */
export interface Unit {
  code: number;
  symbol: string;
  name: string;
}

/** An amount with its unit, as decimal text with every digit given. */
export interface Amount {
  value: string;
  unit: Unit;
}

/** A code of a SIEX catalogue (as text) with the name the request gave it. */
export interface Coded {
  code: string;
  name: string;
}

/** A code of the pest catalogue of its kind (ENFERMEDADES, PLAGAS, MALAS_HIERBAS, REGULADORES_CRECIMIENTO). */
export interface Pest extends Coded {
  kind: PestKind;
}

/** The products of a pass: the main one, then its mix. */
export function productsOf(t: Treatment): ProductDose[] {
  return [t.product, ...t.mix];
}
