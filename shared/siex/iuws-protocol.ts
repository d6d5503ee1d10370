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
