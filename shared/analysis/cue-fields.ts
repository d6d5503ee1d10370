import { anyNumber, day, flag, integer, sectionFields, text } from '../siex/cue-descriptor';

/**
 * The field descriptor of the analysis's CUE section, `Analitica` (schema 3.11.4; RD 1051/2022 arts. 5.b and 6).
 * FEGA gives every `IdAjena*` as number(10); the descriptor text we hold gives no format for the soil parameters, so
 * they take the schema's bare number (non-negative) and are sent as the report gives them.
 */
export const ANALITICA_FIELDS = sectionFields('Analitica', {
  IdAjenaAna: integer('DESCRIPTOR', 10),
  Borrar: flag,
  MaterialAnalizado: integer('SCHEMA_TYPE'),
  Fecha: day,
  Laboratorio: text('SCHEMA_TYPE'),
  Nif: text('SCHEMA_TYPE'),
  NumBoletin: text('SCHEMA_TYPE'),
  'TiposAnalisis.TipoAnalisis': integer('SCHEMA_TYPE'),
  'TiposSustancias.TipoSustancia': integer('SCHEMA_TYPE'),
  'ParametrosSuelo.MateriaOrganica': anyNumber,
  'ParametrosSuelo.Arena': anyNumber,
  'ParametrosSuelo.Limo': anyNumber,
  'ParametrosSuelo.Arcilla': anyNumber,
  'ParametrosSuelo.Ph': anyNumber,
  'ParametrosSuelo.FosforoAsimilable': anyNumber,
  'ParametrosSuelo.PotasioAsimilable': anyNumber,
  'ParametrosSuelo.NitrogenoTotal': anyNumber,
  'ParametrosSuelo.Conductividad': anyNumber,
  'DGCs.CodigoDGC': integer('SCHEMA_TYPE'),
  'DGCs.CodigoCultivo': integer('SCHEMA_TYPE'),
});
