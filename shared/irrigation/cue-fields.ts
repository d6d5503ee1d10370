import { day, decimal, flag, integer, sectionFields, text } from '../siex/cue-descriptor';

/**
 * The field descriptor of the irrigation's CUE section, `Riego` (schema 3.11.4; RD 1051/2022 art. 5; sources as
 * shared/siex/cue-descriptor.ts names them). FEGA gives every `IdAjena*` as number(10); the descriptor text we hold
 * gives no format for the section's quantities, so they take the team's design, as `TratamFito`'s: Superficie
 * number(8,2), and Cantidad number(8,2) as `TratamFito`'s Cantidad, to be checked against FEGA's sheet when the project
 * holds it. The codes the schema types `number` (IdOrigenAgua, TipoBPR) are sent as integers, as their catalogues are.
 */
export const RIEGO_FIELDS = sectionFields('Riego', {
  IdAjenaRiego: integer('DESCRIPTOR', 10),
  Borrar: flag,
  FechaInicio: day,
  FechaFin: day,
  SistemaRiego: integer('SCHEMA_TYPE'),
  Cantidad: decimal(8, 2, 'DESIGN'),
  UnidadMedida: integer('SCHEMA_TYPE'),
  'OrigenAgua.IdOrigenAgua': integer('SCHEMA_TYPE'),
  TipoEnergia: integer('SCHEMA_TYPE'),
  NumContador: text('SCHEMA_TYPE'),
  'BuenasPracticasRiego.TipoBPR': integer('SCHEMA_TYPE'),
  'DGCs.CodigoDGC': integer('SCHEMA_TYPE'),
  'DGCs.CodigoCultivo': integer('SCHEMA_TYPE'),
  'DGCs.Superficie': decimal(8, 2, 'DESIGN'),
});
