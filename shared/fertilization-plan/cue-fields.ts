import { day, decimal, flag, integer, sectionFields } from '../siex/cue-descriptor';

/**
 * The field descriptor of the plan's CUE section, `PlanAbonado` (schema 3.11.4; RD 1051/2022 arts. 5.a and 6; sources
 * as shared/siex/cue-descriptor.ts names them). FEGA gives every `IdAjena*` as number(10); the descriptor text we hold
 * gives no format for the needs and the yield target, so they take the team's design, number(8,2) as `TratamFito`'s
 * Superficie and Cantidad (kg/ha to the hundredth), to be checked against FEGA's sheet when the project holds it. The
 * section's DGCs carry no area: the plan is per hectare.
 */
export const PLAN_ABONADO_FIELDS = sectionFields('PlanAbonado', {
  IdAjenaPlan: integer('DESCRIPTOR', 10),
  Borrar: flag,
  NecesidadUFN: decimal(8, 2, 'DESIGN'),
  NecesidadUFP2O5: decimal(8, 2, 'DESIGN'),
  NecesidadUFK2O: decimal(8, 2, 'DESIGN'),
  ObjetivoProduccion: decimal(8, 2, 'DESIGN'),
  CultivoPrecedente: integer('SCHEMA_TYPE'),
  Herramienta: flag,
  FechaGeneracion: day,
  'DGCs.CodigoDGC': integer('SCHEMA_TYPE'),
  'DGCs.CodigoCultivo': integer('SCHEMA_TYPE'),
});
