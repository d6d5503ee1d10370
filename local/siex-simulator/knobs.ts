import { z } from 'zod';

/**
 * The SIEX simulator's knobs (server.ts documents each): how its IUWS endpoints fail, slow down, and judge the blocks
 * they receive. `POST /_control` sets any of them; the state (simulator.ts) reads them.
 */

/** A block whose result is ERROR: an IdAjena in every section, or in one section only. */
const rejectedSchema = z.union([
  z.number().int(),
  z.object({ section: z.string().min(1), id: z.number().int() }).strict(),
]);
type Rejected = z.infer<typeof rejectedSchema>;

export const knobsSchema = z
  .object({
    /** Delay before every IUWS answer. */
    latencyMs: z.number().int().min(0).max(600_000),
    /** Share of IUWS calls answered 503 at random. */
    errorRate: z.number().min(0).max(1),
    /** Every IUWS call answers 503. */
    outage: z.boolean(),
    /** Every IUWS call answers 503 until then (epoch ms); null for none. */
    outageUntil: z.number().nullable(),
    /**
     * Blocks whose result is ERROR (SIM_RECHAZADO): a bare IdAjena, a block of any section under it; `{ section, id }`,
     * that section's block only (each section's IdAjena is a sequence of its own).
     */
    rejectIds: z.array(rejectedSchema),
    /** Time from an accepted `crear` to FINALIZADO (PENDIENTE for the first half, EN_PROCESO for the second). */
    processingMs: z.number().int().min(0).max(3_600_000),
    /** `comunicacion` answers 503 (tokens already issued keep working). */
    failComunicacion: z.boolean(),
    /** Validity of newly issued tokens. */
    tokenTtlSeconds: z.number().int().min(1).max(86_400),
    /** The next n IUWS calls answer 429 with Retry-After: retryAfterSeconds. */
    throttleNext: z.number().int().min(0),
    retryAfterSeconds: z.number().int().min(0).max(3600),
    /** The next n IUWS calls answer 503 (a deterministic errorRate). */
    failNext: z.number().int().min(0),
    /**
     * crear is processed when it arrives, and its answer held this long: a client that gives up sooner never learns
     * that SIEX took the document (SIEX slower than the client's time-out).
     */
    crearAnswerDelayMs: z.number().int().min(0).max(600_000),
    /** The next n crear calls are processed, then their connection is reset without an answer (the answer is lost). */
    resetCrearNext: z.number().int().min(0),
  })
  .strict();
export type Knobs = z.infer<typeof knobsSchema>;

export const DEFAULT_KNOBS: Knobs = {
  latencyMs: 0,
  errorRate: 0,
  outage: false,
  outageUntil: null,
  rejectIds: [],
  processingMs: 300,
  failComunicacion: false,
  tokenTtlSeconds: 3600,
  throttleNext: 0,
  retryAfterSeconds: 1,
  failNext: 0,
  crearAnswerDelayMs: 0,
  resetCrearNext: 0,
};

/** What `POST /_control` accepts: any subset of the knobs, plus two conveniences. */
export const controlSchema = knobsSchema
  .extend({
    outageUntil: z.union([z.number(), z.iso.datetime({ offset: true }), z.null()]),
    /** Shorthand for outageUntil = now + outageForMs. */
    outageForMs: z.number().int().min(0),
    /** One-off action: revoke every issued token (the next authorised call answers 401). */
    expireTokens: z.literal(true),
  })
  .partial()
  .strict();
export type Control = z.infer<typeof controlSchema>;

/** Whether `rejectIds` refuses the block `id` of `section`. */
export function rejected(rejectIds: readonly Rejected[], section: string, id: number): boolean {
  return rejectIds.some((r) => (typeof r === 'number' ? r === id : r.section === section && r.id === id));
}

/** The sections `rejectIds` names that the schema does not have: a knob that could never refuse anything. */
export function unknownSections(rejectIds: readonly Rejected[], sections: ReadonlySet<string>): string[] {
  return [...new Set(rejectIds.flatMap((r) => (typeof r === 'number' || sections.has(r.section) ? [] : [r.section])))];
}

/** POST /_control/notebook: a block kept as if another notebook had sent it (server.ts). */
export const seedEntrySchema = z.strictObject({
  codigoRea: z.string().min(1),
  section: z.string().min(1),
  block: z.record(z.string(), z.unknown()),
  notebook: z.number().int().positive().optional(),
});

/** POST /_control/notebook/forget: the block SIEX loses. */
export const forgetSchema = z.strictObject({ section: z.string().min(1), idAjena: z.number().int().positive() });
