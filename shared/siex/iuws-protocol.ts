import { z } from 'zod';

/**
 * The wire shapes of the IUWS protocol as the gateway speaks it (documented in iuws-client.ts), shared by the client
 * and the local SIEX simulator so that the two cannot drift apart.
 */

export const IUWS_PATHS = {
  token: '/comunicacion',
  submit: '/crear',
  /** Followed by `/{idPeticion}`. */
  status: '/comprobarEstado',
  /**
   * The reads of what SIEX holds, named as the register names them (FEGA Anexo VI 3.11.4, section 3.1, and Galicia's
   * XEAGA integration pages list `exportar` and `exportarREA`). FEGA does not publish their requests' or answers'
   * shapes: these, `/{codigoRea}?campana=YYYY` answered as below, are the SIEX simulator's (local/siex-simulator),
   * and the one place to change when FEGA publishes them. FEGA's path takes `{numeroExplotacion}_{CIFgestora}`
   * (Galicia's adds the notebook's id) and `exportarREA` the holder's NIF.
   */
  notebook: '/exportar',
  holding: '/exportarREA',
} as const;

/** The campaign a read of `exportar` or `exportarREA` asks for (the simulator's query parameter). */
export const CAMPAIGN_PARAM = 'campana';

/** The header that makes `crear` idempotent: a repeat with the same key answers the first request id. */
export const IDEMPOTENCY_HEADER = 'X-Idempotency-Key';
export const MAX_IDEMPOTENCY_KEY_LENGTH = 200;

export const tokenRequestSchema = z.object({ usuario: z.string().min(1), contrasena: z.string().min(1) });

export const tokenResponseSchema = z.object({ token: z.string().min(1), expiraEn: z.number().positive() });

export const submitResponseSchema = z.object({
  idPeticion: z.union([z.string().min(1), z.number()]).transform(String),
});

const IUWS_STATES = ['PENDIENTE', 'EN_PROCESO', 'FINALIZADO'] as const;

const errorItemSchema = z.object({ codigo: z.string(), descripcion: z.string() });
export type IuwsErrorItem = z.infer<typeof errorItemSchema>;

/**
 * A section of the CUE document's `ActividadesExplotacion` and the field its blocks are named by (`IdAjena…`). Each section's IdAjena is a sequence of its own, so a block is known by its
 * section and id together. The names do not follow from one another (an `EnergiaUtilizada` block is named by
 * `IdAjenaEnergia`, a `ComercializacionVD` one by `IdAjenaVenta`): the schema, or the kind that writes the section, says which.
 */
export interface CueSection {
  readonly section: string;
  readonly idAjena: string;
}

/** The prefix of every block's own id field in schema 3.11.4. */
export const ID_AJENA = 'IdAjena';

/**
 * One result per block, named by the block's own id field (its section's `idAjena`): `{ "IdAjenaEnergia": 7,
 * "resultado": "OK", "errores": [] }`.
 */
const recordResultSchema = z.looseObject({
  resultado: z.enum(['OK', 'ERROR']),
  errores: z.array(errorItemSchema).default([]),
});
export type RecordResult = z.input<typeof recordResultSchema>;

/**
 * The block a result is about: its one `IdAjena…` member, read as the IdAjena field of one of `sections` (those the
 * gateway sends), and that member's integer id. Otherwise why the result cannot be read.
 */
export function resultBlock(
  result: Readonly<Record<string, unknown>>,
  sections: readonly CueSection[],
): { section: string; id: number } | { problem: string } {
  const named = Object.keys(result).filter((k) => k.startsWith(ID_AJENA));
  if (named.length !== 1)
    return { problem: `a result must name its block by one IdAjena field, not ${named.length} (${named.join(', ')})` };
  const field = named[0]!;
  const section = sections.find((s) => s.idAjena === field)?.section;
  if (section === undefined)
    return {
      problem: `a result names its block by ${field}, the IdAjena field of no section sent (${sections.map((s) => s.idAjena).join(', ')})`,
    };
  const id = result[field];
  if (typeof id !== 'number' || !Number.isSafeInteger(id))
    return { problem: `${field} ${JSON.stringify(id)} is not an integer` };
  return { section, id };
}

export const statusResponseSchema = z.object({
  estado: z.enum(IUWS_STATES),
  resultados: z.array(recordResultSchema).default([]),
});

/** The body of every IUWS error answer (4xx, 5xx); `errores` lists schema violations on a refused `crear`. */
export const errorResponseSchema = z.object({
  codigo: z.string(),
  descripcion: z.string(),
  errores: z.array(z.unknown()).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/**
 * `exportar`'s answer, as the simulator gives it: the CUE document's own envelope (schema 3.11.4), one CUADERNO item
 * per notebook that wrote the holding's activities (`IdCuaderno`: which notebook, where SIEX says it; the register's
 * "actividades completas, incluidas de otros CUE con origen"), each section's blocks as SIEX holds them now.
 */
export const notebookResponseSchema = z.object({
  CUADERNO: z.array(
    z.looseObject({
      CodigoRea: z.string(),
      /** The notebook's id: an integer in schema 3.11.4. */
      IdCuaderno: z.number().int().optional(),
      ActividadesExplotacion: z.record(z.string(), z.array(z.record(z.string(), z.unknown()))).default({}),
    }),
  ),
});
export type NotebookResponse = z.input<typeof notebookResponseSchema>;

/** A SIGPAC enclosure of a production unit, as the CUE's DGC blocks name one (schema 3.11.4 `AltaDGC`). */
const reaEnclosureSchema = z.object({
  Provincia: z.string(),
  Municipio: z.string(),
  Agregado: z.number().int(),
  Zona: z.number().int(),
  Poligono: z.number().int(),
  Parcela: z.number().int(),
  Recinto: z.number().int(),
  /** Hectares of the enclosure. */
  Superficie: z.number().positive(),
  /** Hectares of the unit's crop on it, as its DGC declares them. */
  SuperficieCultivo: z.number().positive().optional(),
  CodigoDGC: z.number().int().positive().optional(),
  ZonaVulnerable: z.boolean().optional(),
});

/**
 * `exportarREA`'s answer, as the simulator gives it: FEGA publishes no field list of the REA descriptor, so this is
 * the minimum content Orden APA/204/2023 (annex I) gives a holding's REA entry (holding, holder, production units with
 * their crop and surface), in the CUE schema's vocabulary where it has one (codes of the SIEX catalogues).
 */
export const holdingResponseSchema = z.object({
  CodigoRea: z.string().length(14),
  Campana: z.number().int(),
  Nombre: z.string().min(1),
  Localidad: z.string().default(''),
  Provincia: z.string().default(''),
  ComunidadAutonoma: z.object({ Codigo: z.string().regex(/^\d{2}$/), Nombre: z.string().min(1) }),
  Titular: z.object({
    NIF: z.string(),
    Nombre: z.string().default(''),
    Apellidos: z.string().default(''),
    Email: z.string().default(''),
  }),
  UnidadesProduccion: z.array(
    z.object({
      /** The crop (SIEX catalogue of crops) and its variety. */
      Cultivo: z.object({ Codigo: z.string().regex(/^\d+$/), Nombre: z.string().min(1) }),
      Variedad: z.object({ Codigo: z.number().int().nonnegative(), Nombre: z.string().min(1) }),
      NombreParcela: z.string().min(1),
      Recintos: z.array(reaEnclosureSchema).min(1),
    }),
  ),
});
export type HoldingResponse = z.infer<typeof holdingResponseSchema>;
