import { z } from 'zod';

/**
 * One element of the register export's `Productos`, as the ministry writes it (field names with spaces and all).
 * Lenient on purpose: text fields may come as numbers or null, numbers as text with a decimal comma, unknown fields
 * are allowed (the export grows fields over time); the mapper decides what a value means and reports what it cannot
 * use. Only the shape is enforced: a product must have DATOSPRODUCTO; lists must be lists.
 */
const text = z
  .union([z.string(), z.number(), z.null()])
  .optional()
  .transform((v) => (v === undefined || v === null ? '' : String(v).trim()));
const numeric = z.union([z.number(), z.string(), z.null()]).optional();

const rawUseSchema = z.looseObject({
  CodigoCultivo: text,
  Cultivo: text,
  CodigoAgente: text,
  Agente: text,
  Dosis_Min: numeric,
  Dosis_Max: numeric,
  'Unidad Medida dosis': text,
  /** Seen in some re-exports of the same data. */
  UnidadMedidaDosis: text,
  'Plazo Seguridad': text,
  Aplicaciones: text,
  IntervaloAplicaciones: text,
  MetodoAplicacion: text,
  TipoUsuario: text,
  CondicionamientoEspecifico: text,
});

const rawComponentSchema = z.looseObject({
  'Nombre Sustancia': text,
  Concentracion: numeric,
  DescripcionNota: text,
});

export const rawProductSchema = z.looseObject({
  DATOSPRODUCTO: z.looseObject({
    IdProducto: text,
    Num_Registro: text,
    Nombre: text,
    Titular: text,
    Fabricante: text,
    Formulado: text,
    Estado: text,
    Fecha_Registro: text,
    Fecha_Caducidad: text,
    Fecha_LimiteVenta: text,
    Fecha_Cancelacion: text,
    Condicionamiento: text,
  }),
  COMPOSICION: z
    .array(rawComponentSchema)
    .nullish()
    .transform((v) => v ?? []),
  USOS: z
    .array(rawUseSchema)
    .nullish()
    .transform((v) => v ?? []),
});

export type RawProduct = z.infer<typeof rawProductSchema>;
export type RawUse = z.infer<typeof rawUseSchema>;
export type RawComponent = z.infer<typeof rawComponentSchema>;
