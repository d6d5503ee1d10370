import type { DateTime } from 'luxon';
import type { Amount, Coded, PassPart, Unit } from '../plant-protection/product-part';

/**
 * A phytosanitary treatment as the rules read it: one pass of a tank over crop locations, its product and what was
 * mixed with it, who applied it and who advised it, why, how well, with what; or, instead of a product, a non-chemical
 * measure (`otherMeasure`). Amounts the record echoes keep every digit they were given (decimal text); what the request
 * did not say is null, so the record and the history show it as it was said. Mapped from a request (stored-request.ts;
 * the wire's mapper, wire-mapper.ts) and back.
 */
export interface Treatment extends PassPart {
  /** The non-chemical measure taken instead of a product (then `product` is null and `mix` empty). */
  otherMeasure: OtherMeasure | null;
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

/**
 * A non-chemical measure of plant protection (RD 1311/2012 Anexo III; CUE `TratamFito.OtrasActuacionesFito`):
 * beneficial organisms released, traps, pheromones, nets, mowing...
 */
export interface OtherMeasure {
  /** TIPO_MEDIDA_FITOSANITARIA. */
  measure: Coded;
  /** How much, in `unit` (FEGA's descriptor: obligatory, in the units it lists). */
  quantity: number;
  unit: Unit;
  /** The number of the Registro de determinados Medios de Defensa Fitosanitaria (MDF), when the means is registered. */
  mdfRegistration: string | null;
  /** BUENAS_PRACTICAS_AMBITOS, "Fitosanitario" scope. */
  goodPractice: Coded | null;
}
