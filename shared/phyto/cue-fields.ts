import { day, decimal, flag, integer, sectionFields, text } from '../siex/cue-descriptor';

/**
 * The field descriptor of the treatment's CUE section, `TratamFito` (FEGA, Anexo VI, `EstructuraCuadernoWS`; sources
 * as shared/siex/cue-descriptor.ts names them). DESCRIPTOR fields are those the audit of issue 23 quotes:
 * IdAjenaTratamFito number(10), HoraTratamiento string(8) HH:MM:SS, Superficie number(8,2), Dosis number(8,3),
 * Cantidad number(8,2).
 */
export const TRATAMFITO_FIELDS = sectionFields('TratamFito', {
  IdAjenaTratamFito: integer('DESCRIPTOR', 10),
  Borrar: flag,
  FechaInicio: day,
  FechaFin: day,
  HoraTratamiento: text('DESCRIPTOR', { minLength: 8, maxLength: 8, pattern: /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/ }),
  'DGCs.CodigoDGC': integer('SCHEMA_TYPE'),
  'DGCs.CodigoCultivo': integer('SCHEMA_TYPE'),
  'DGCs.Superficie': decimal(8, 2),
  'DGCs.EstadoFenologico': integer('SCHEMA_TYPE'),
  'ProblematicaFito.Enfermedades.TipoEnfermedad': integer('SCHEMA_TYPE'),
  'ProblematicaFito.ArtropodosGasteropodos.TipoPlaga': integer('SCHEMA_TYPE'),
  'ProblematicaFito.MalasHierbas.TipoMalaHierba': integer('SCHEMA_TYPE'),
  'ProblematicaFito.ReguladoresOtros.TipoRegulador': integer('SCHEMA_TYPE'),
  'Justificaciones.JustAct': integer('SCHEMA_TYPE'),
  'ProductosFito.TipoProducto': integer('SCHEMA_TYPE'),
  'ProductosFito.NumRegistro': text('SCHEMA_TYPE'),
  'ProductosFito.Dosis': decimal(8, 3),
  // Not written today (the dose goes as Dosis in its unit: cue-block.ts), held for when it is.
  'ProductosFito.Cantidad': decimal(8, 2),
  'ProductosFito.Unidad': integer('SCHEMA_TYPE'),
  // A non-chemical measure instead of products (schema 3.11.4: an object, one per block). No descriptor format of its
  // own was found: the codes as the schema types them, the quantity as the section's Cantidad, number(8,2).
  'OtrasActuacionesFito.TipoMedida': integer('SCHEMA_TYPE'),
  'OtrasActuacionesFito.Cantidad': decimal(8, 2, 'DESIGN'),
  'OtrasActuacionesFito.Unidad': integer('SCHEMA_TYPE'),
  'OtrasActuacionesFito.NumRegistroMDF': text('SCHEMA_TYPE'),
  'OtrasActuacionesFito.BuenasPracticas': integer('SCHEMA_TYPE'),
  'IdentificadorAplicador.AplicadorEmpresa.NumROPO': text('SCHEMA_TYPE'),
  'IdentificadorAplicador.EquipoAplicador.AplicacionManual': flag,
  'IdentificadorAplicador.EquipoAplicador.NumROMA': text('SCHEMA_TYPE'),
  'IdentificadorAplicador.EquipoAplicador.IdEquipoAplicador': text('SCHEMA_TYPE', { minLength: 1 }),
  'IdentificadorAplicador.EquipoAplicador.TipoMaquinariaUNE': text('SCHEMA', { maxLength: 12 }),
  'AsesorValidacion.NumROPO': text('SCHEMA_TYPE'),
  'AsesorValidacion.Validacion': flag,
  'AsesorValidacion.Observaciones': text('SCHEMA_TYPE'),
  Eficacia: integer('SCHEMA_TYPE'),
  Observaciones: text('SCHEMA_TYPE'),
});
