import { anyNumber, day, decimal, flag, integer, sectionFields, text } from '../siex/cue-descriptor';

/**
 * The field descriptor of the fertilization's CUE section, `Fertilizacion` (RD 1051/2022; sources as
 * shared/siex/cue-descriptor.ts names them). The descriptor text we hold does not describe this section: its DESIGN
 * fields take the format the descriptor gives the same field of `TratamFito` (IdAjena number(10), Superficie
 * number(8,2), Dosis number(8,3), Cantidad number(8,2)), to be checked against FEGA's Fertilizacion descriptor when
 * the project holds it.
 */
export const FERTILIZACION_FIELDS = sectionFields('Fertilizacion', {
  IdAjenaFerti: integer('DESIGN', 10),
  Borrar: flag,
  FechaInicio: day,
  FechaFin: day,
  // Obligatorio in the descriptor (block 9, field 5: whether the holding manages its inputs sustainably, RD 1051/2022).
  GestionSostInsu: flag,
  'BuenasPracticas.TipoBPF': integer('SCHEMA_TYPE'),
  'MaterialFertilizante.Material': integer('SCHEMA_TYPE'),
  'MaterialFertilizante.DetalleMaterial': integer('SCHEMA_TYPE'),
  'MaterialFertilizante.EmpresaSuministradora': text('SCHEMA_TYPE'),
  'MaterialFertilizante.NifEmpresa': text('SCHEMA_TYPE'),
  'MaterialFertilizante.REGA': text('SCHEMA_TYPE'),
  'MaterialFertilizante.NIMA': text('SCHEMA_TYPE'),
  'MaterialFertilizante.TratamientoEstiercoles': integer('SCHEMA_TYPE'),
  'MaterialFertilizante.Macronutrientes.TipoMacroN': integer('SCHEMA_TYPE'),
  'MaterialFertilizante.Macronutrientes.Porcentaje': anyNumber,
  'MaterialFertilizante.Micronutrientes.TipoMicroN': integer('SCHEMA_TYPE'),
  'MaterialFertilizante.Micronutrientes.Porcentaje': anyNumber,
  'MaterialFertilizante.MetalesPesados.TipoMetalP': integer('SCHEMA_TYPE'),
  'MaterialFertilizante.MetalesPesados.Porcentaje': anyNumber,
  'MaterialFertilizante.Densidad': anyNumber,
  // The density's unit (kg/L, UNIDADES_MEDIDA 12); the schema types it `number`, the code is an integer.
  'MaterialFertilizante.UnidadesMedida': integer('SCHEMA_TYPE'),
  'AplicacionMaterialFertilizante.NombreProducto': text('SCHEMA_TYPE'),
  'AplicacionMaterialFertilizante.AplicacionLodos': flag,
  'AplicacionMaterialFertilizante.TipoFertilizacion': integer('SCHEMA_TYPE'),
  'AplicacionMaterialFertilizante.MetodoFertilizacion': integer('SCHEMA_TYPE'),
  'AplicacionMaterialFertilizante.Dosis': decimal(8, 3, 'DESIGN'),
  'AplicacionMaterialFertilizante.Unidad': integer('SCHEMA_TYPE'),
  'EquipoAplicador.NumROMA': text('SCHEMA_TYPE'),
  'EquipoAplicador.IdEquipoAplicador': text('SCHEMA_TYPE', { minLength: 1 }),
  'EquipoAplicador.TipoMaquinariaUNE': text('SCHEMA', { maxLength: 12 }),
  'Fertirrigacion.SistemaRiego': integer('SCHEMA_TYPE'),
  'Fertirrigacion.Cantidad': decimal(8, 2, 'DESIGN'),
  'Fertirrigacion.Unidad': integer('SCHEMA_TYPE'),
  'Fertirrigacion.OrigenAgua.IdOrigenAgua': integer('SCHEMA_TYPE'),
  'Fertirrigacion.DosisN': decimal(8, 3, 'DESIGN'),
  'Fertirrigacion.UnidadDosisN': integer('SCHEMA_TYPE'),
  'Fertirrigacion.DosisP': decimal(8, 3, 'DESIGN'),
  'Fertirrigacion.UnidadDosisP': integer('SCHEMA_TYPE'),
  'DGCs.CodigoDGC': integer('SCHEMA_TYPE'),
  'DGCs.CodigoCultivo': integer('SCHEMA_TYPE'),
  'DGCs.Superficie': decimal(8, 2, 'DESIGN'),
});
