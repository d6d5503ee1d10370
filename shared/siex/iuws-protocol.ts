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
} as const;

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

const outcome = { resultado: z.enum(['OK', 'ERROR']), errores: z.array(errorItemSchema).default([]) };
/** One result per block, named by the block's own id field: a treatment's `IdAjenaTratamFito`, a fertilization's `IdAjenaFerti`. */
const recordResultSchema = z.union([
  z.object({ IdAjenaTratamFito: z.number().int(), ...outcome }),
  z.object({ IdAjenaFerti: z.number().int(), ...outcome }),
]);
export type RecordResult = z.input<typeof recordResultSchema>;

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
