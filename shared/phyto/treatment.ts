import type { DateTime } from 'luxon';
import type { Amount, Coded, ProductPart } from '../plant-protection/product-part';

/**
 * A phytosanitary treatment as the rules read it: one pass of a tank over crop locations, its product and what was
 * mixed with it, who applied it and who advised it, why, how well, with what. Amounts the record echoes keep every
 * digit they were given (decimal text); what the request did not say is null, so the record and the history show it
 * as it was said. Mapped from a request (stored-request.ts; the wire's mapper, wire-mapper.ts) and back.
 */
export interface Treatment extends ProductPart {
  /** When the pass was made (Madrid). */
  appliedAt: DateTime;
  idcp: number[];
  /** EST_FENOLOGICO: the crop's stage. */
  phenology: Coded | null;
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
