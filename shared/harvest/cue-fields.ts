import { anyNumber, day, decimal, flag, integer, sectionFields, text } from '../siex/cue-descriptor';

/**
 * The field descriptor of the harvest's CUE section, `Cosecha` (schema 3.11.4; sources as shared/siex/cue-descriptor.ts
 * names them). FEGA's descriptor is not held for this section: the IdAjena takes the number(10) FEGA gives every
 * IdAjena, and `Cantidad` and `DGCs.Superficie` the formats the descriptor gives the same fields of `TratamFito`
 * (number(8,2)): the team's choice (DESIGN), pending FEGA's sheet. Everything else is the schema's type.
 */
export const COSECHA_FIELDS = sectionFields('Cosecha', {
  IdAjenaCosecha: integer('DESCRIPTOR', 10),
  Borrar: flag,
  // 1 a harvest, 0 a mowing: no catalogue or description is published; by analogy with SiembraPlantacion's number(1)
  // "1 Siembra 0 Plantación" (see the README's decision table).
  CosechaSiega: integer('DESIGN', 1),
  FechaInicio: day,
  FechaFin: day,
  Cantidad: decimal(8, 2, 'DESIGN'),
  Unidad: integer('SCHEMA_TYPE'),
  'DGCs.CodigoDGC': integer('SCHEMA_TYPE'),
  'DGCs.CodigoCultivo': integer('SCHEMA_TYPE'),
  'DGCs.ProductoCosechado': integer('SCHEMA_TYPE'),
  'DGCs.Superficie': decimal(8, 2, 'DESIGN'),
  'FinalidadCosecha.IdFinalidad': integer('SCHEMA_TYPE'),
  'DestinoRestoVeg.IdDestinoRest': integer('SCHEMA_TYPE'),
  SemillasSiembra: flag,
  Plantas: flag,
  SinCosechado: flag,
  DepositadoSuelo: flag,
  'Maquinaria.TipoMaquinariaUNE': text('SCHEMA', { maxLength: 12 }),
  'Maquinaria.PotenciaMaquinaria': anyNumber,
  'Maquinaria.UnidadesMedida': integer('SCHEMA_TYPE'),
  'Maquinaria.TipoEnergia': integer('SCHEMA_TYPE'),
  'Maquinaria.NumRepeticiones': integer('SCHEMA_TYPE'),
  'Maquinaria.Duracion': integer('SCHEMA_TYPE'),
});
