import type { DateTime } from 'luxon';
import type { StoredApplicator, StoredProduct } from '../catalog/catalog-store';
import type { SiexCodes } from '../catalog/siex-codes/siex-codes';
import type { Machine } from '../domain/equipment';
import type { PestKind } from '../domain/pest-kind';

/**
 * The product part of a treatment with plant protection products (RD 1311/2012 Anexo III, Parte I B; Reg. (EC)
 * 1107/2009 art. 67): what every treatment kind records of its products, whatever it treats (a crop in the field,
 * produce, a store): the product and its mix at their doses, the pest, why, how well, who applied it with
 * what, who advised it. Kind-free: each treatment kind adds what it treats.
 */
export interface ProductPart {
  product: ProductDose;
  /** The further products of the tank, in the request's order; empty: one product alone. */
  mix: ProductDose[];
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
  detail: string | null;
}

/**
 * The product part where the pass may have no product: a treatment that is a non-chemical measure alone (FEGA's
 * descriptor: a block's `OtrasActuacionesFito` is "excluyente" with its `ProductosFito`). Every rule of the pass that is
 * not a product's (applicator, advisor, equipment, codes) reads this much.
 */
export type PassPart = Omit<ProductPart, 'product'> & { product: ProductDose | null };

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

/** The products of a pass: the main one, then its mix; none for a measure alone. */
export function productsOf(t: Pick<PassPart, 'product' | 'mix'>): ProductDose[] {
  return t.product ? [t.product, ...t.mix] : [];
}

/** What the product part's rules look at (a kind's rule context holds at least this); the rules do no I/O. */
export interface PartContext {
  treatment: PassPart;
  /** The application time, in Madrid. */
  appliedAt: DateTime;
  /** The main product's register entry (undefined: not in it). */
  product: StoredProduct | undefined;
  applicator: StoredApplicator | undefined;
  /** The card numbered as the request's advisor, if any has that number. */
  advisor: StoredApplicator | undefined;
  /** True when a SIEX catalogue code exists and is in force on the date (catalogue name as in the SIEX files). */
  codeInForce: (catalogue: string, code: string, on: DateTime) => boolean;
  /** The SIEX catalogues: units with their dimensions, the pest groups. */
  codes: SiexCodes;
  /** The machines of the version an amendment replaces (absent: a registration), which keep what they were let by. */
  ownMachines?: readonly Machine[];
}

/** What judging a product against its label takes: the day and the SIEX catalogues (no applicator, no place). */
export type LabelContext = Pick<PartContext, 'appliedAt' | 'codes' | 'codeInForce'>;

/**
 * One product of the pass as the product rules judge it, the main one or an item of the mix: each is judged as if it
 * were applied alone (Regulation (EC) 1107/2009 art. 55: each product used within the conditions of its own
 * authorisation and label; a mix does not widen them).
 */
export interface ProductApplication {
  /** True for an item of the mix. */
  mixed: boolean;
  code: string;
  dose: number;
  unit: Unit;
  /** The pest it is applied against: its own, else the record's. */
  infection: Pest | null;
  product: StoredProduct | undefined;
  /** The path of one of its own fields (`body.dose`, `body.mix[1].dose`). */
  own: (field: string) => string;
  /**
   * The path a violation about a field the pass shares (locations, date, applicator) takes: that field for the main
   * product, the item's product code for a mixed one, so the answer says which product broke its label.
   */
  shared: (field: string) => string;
}

/** The products of the pass, each with its register entry (`mixed[i]` for the mix's i-th): the main one first. */
export function partApplications(
  t: ProductPart,
  main: StoredProduct | undefined,
  mixed: readonly (StoredProduct | undefined)[],
): ProductApplication[] {
  const first: ProductApplication = {
    mixed: false,
    code: t.product.code,
    dose: t.product.dose,
    unit: t.product.unit,
    infection: t.infection,
    product: main,
    own: (field) => `body.${field}`,
    shared: (field) => `body.${field}`,
  };
  return [
    first,
    ...t.mix.map((item, i): ProductApplication => {
      const at = `body.mix[${i}]`;
      return {
        mixed: true,
        code: item.code,
        dose: item.dose,
        unit: item.unit,
        infection: item.infection ?? t.infection,
        product: mixed[i],
        own: (field) => `${at}.${field}`,
        shared: () => `${at}.subtype.code`,
      };
    }),
  ];
}
