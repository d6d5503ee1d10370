import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { requestFingerprint } from '../../shared/idempotency/idempotency';
import { IuwsErrorItem, RecordResult } from '../../shared/siex/iuws-protocol';

/**
 * The SIEX simulator's state and rules, without HTTP (server.ts serves them): the knobs, issued tokens, accepted
 * submissions with their idempotency keys and per-record outcomes, and the statistics the tests read.
 */

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
    /** IdAjenaTratamFito values whose result is ERROR (SIM_RECHAZADO). */
    rejectIds: z.array(z.number().int()),
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

export type IuwsEndpoint = 'comunicacion' | 'crear' | 'comprobarEstado';

export interface Submission {
  idPeticion: string;
  idempotencyKey: string | null;
  receivedAt: string;
  /** Every IdAjenaTratamFito of the document, in order. */
  ids: number[];
  /** Every IdAjenaFerti of the document, in order. */
  fertilizationIds: number[];
  document: unknown;
  /** When it becomes FINALIZADO (epoch ms). */
  readyAt: number;
  results: RecordResult[];
}

/** One accepted crear as GET /_inspect/submissions shows it. */
export interface SubmissionView {
  idPeticion: string;
  idempotencyKey: string | null;
  receivedAt: string;
  ids: number[];
  fertilizationIds: number[];
  estado: 'PENDIENTE' | 'EN_PROCESO' | 'FINALIZADO';
  results: RecordResult[];
  document?: unknown;
}

/** GET /_inspect/stats. */
export interface SimulatorStats {
  calls: Record<IuwsEndpoint | 'other', number>;
  /** Per endpoint, answers by HTTP status. */
  status: Record<string, Record<string, number>>;
  /** Accepted crear calls (idempotent repeats excluded). */
  submissions: number;
  /** crear calls answered with an earlier submission's id (same idempotency key and document). */
  replays: number;
  /** Per IdAjenaTratamFito, how many accepted submissions contained it. */
  records: Record<string, number>;
  /** The IdAjenaTratamFito values in more than one accepted submission. */
  duplicates: number[];
}

interface TratamFitoLike {
  IdAjenaTratamFito: number;
  FechaInicio?: unknown;
  FechaFin?: unknown;
  Borrar?: unknown;
}

/**
 * The activity blocks the simulator takes, each with its own id field: a treatment's IdAjena and a fertilization's
 * are separate sequences, so a block is known by its section and id together.
 */
const SECTIONS = {
  TratamFito: { id: 'IdAjenaTratamFito', noun: 'tratamiento', entry: 'tratamiento' },
  Fertilizacion: { id: 'IdAjenaFerti', noun: 'fertilización', entry: 'fertilizacion' },
} as const;
type Section = keyof typeof SECTIONS;

interface LocatedBlock {
  codigoRea: string;
  section: Section;
  id: number;
  block: { FechaInicio?: unknown; FechaFin?: unknown; Borrar?: unknown };
}

/** The activity blocks of a (schema-valid) CUE document, across every CUADERNO item, with their holding's REA. */
function notebookBlocks(document: unknown): LocatedBlock[] {
  const items = (document as { CUADERNO?: unknown[] }).CUADERNO ?? [];
  return items.flatMap((item) => {
    const { CodigoRea, ActividadesExplotacion } = item as {
      CodigoRea?: string;
      ActividadesExplotacion?: Partial<Record<Section, Record<string, unknown>[]>>;
    };
    return (Object.keys(SECTIONS) as Section[]).flatMap((section) =>
      (ActividadesExplotacion?.[section] ?? []).map((block) => ({
        codigoRea: CodigoRea ?? '',
        section,
        id: block[SECTIONS[section].id] as number,
        block,
      })),
    );
  });
}

/** The TratamFito blocks of a (schema-valid) CUE document, across every CUADERNO item. */
export function tratamFitoBlocks(document: unknown): TratamFitoLike[] {
  return notebookBlocks(document)
    .filter((b) => b.section === 'TratamFito')
    .map((b) => b.block as TratamFitoLike);
}

/** A treatment SIEX holds in a farm's notebook: the last version accepted under its IdAjena. */
export interface NotebookEntry {
  codigoRea: string;
  IdAjenaTratamFito: number;
  tratamiento: unknown;
}

/** A fertilization SIEX holds in a farm's notebook: the last version accepted under its IdAjenaFerti. */
export interface FertilizationNotebookEntry {
  codigoRea: string;
  IdAjenaFerti: number;
  fertilizacion: unknown;
}

const heldKey = (section: Section, id: number) => `${section}:${id}`;

interface HeldBlock {
  section: Section;
  id: number;
  entry: NotebookEntry | FertilizationNotebookEntry;
}

/** `dd/mm/yyyy` or `dd-mm-yyyy` (as the schema allows) to a comparable yyyymmdd number. */
function dayNumber(value: unknown): number | undefined {
  const m = typeof value === 'string' ? /^(\d{1,2})[/-](\d{1,2})[/-](\d{4})$/.exec(value) : null;
  return m ? Number(m[3]) * 10_000 + Number(m[2]) * 100 + Number(m[1]) : undefined;
}

export class SiexSimulatorState {
  knobs: Knobs;
  private tokens = new Map<string, number>();
  private submissions: Submission[] = [];
  private byId = new Map<string, Submission>();
  private byKey = new Map<string, { submission: Submission; hash: string }>();
  /** Every block ever accepted, by section and IdAjena (a later `Borrar` needs one). */
  private known = new Set<string>();
  /**
   * The notebooks as SIEX holds them: per IdAjenaTratamFito, the last version accepted. A block sent again under the
   * same IdAjena replaces the earlier one; `Borrar: true` removes it.
   */
  private held = new Map<string, HeldBlock>();
  private sequence = 0;
  private readonly prefix = randomBytes(3).toString('hex').toUpperCase();
  private calls: Record<IuwsEndpoint | 'other', number> = { comunicacion: 0, crear: 0, comprobarEstado: 0, other: 0 };
  private statuses: Record<string, Record<string, number>> = {};
  private replays = 0;
  private recordCounts = new Map<number, number>();

  /** `initial`: the knobs at start, which a reset restores. */
  constructor(
    private readonly credentials: { username: string; password: string },
    private readonly initial: Partial<Knobs> = {},
    private readonly now: () => number = Date.now,
  ) {
    this.knobs = this.startKnobs();
  }

  private startKnobs(): Knobs {
    return { ...structuredClone(DEFAULT_KNOBS), ...structuredClone(this.initial) };
  }

  reset(): void {
    this.knobs = this.startKnobs();
    this.tokens.clear();
    this.submissions = [];
    this.byId.clear();
    this.byKey.clear();
    this.known.clear();
    this.held.clear();
    this.calls = { comunicacion: 0, crear: 0, comprobarEstado: 0, other: 0 };
    this.statuses = {};
    this.replays = 0;
    this.recordCounts.clear();
  }

  /** Applies a validated control request; answers the knobs now in force. */
  control(c: Control): Knobs {
    const { outageForMs, expireTokens, outageUntil, ...rest } = c;
    Object.assign(this.knobs, rest);
    if (outageUntil !== undefined)
      this.knobs.outageUntil = typeof outageUntil === 'string' ? Date.parse(outageUntil) : outageUntil;
    if (outageForMs !== undefined) this.knobs.outageUntil = this.now() + outageForMs;
    if (expireTokens) this.tokens.clear();
    return this.knobs;
  }

  countCall(endpoint: IuwsEndpoint | 'other'): void {
    this.calls[endpoint]++;
  }

  countStatus(endpoint: string, status: number): void {
    const byStatus = (this.statuses[endpoint] ??= {});
    byStatus[status] = (byStatus[status] ?? 0) + 1;
  }

  /** The failure the knobs impose on this IUWS call, if any (consumes failNext / throttleNext). */
  injectedFailure(endpoint: IuwsEndpoint): { status: 429 | 503; retryAfterSeconds?: number; why: string } | undefined {
    const k = this.knobs;
    if (k.outage) return { status: 503, why: 'outage (knob outage)' };
    if (k.outageUntil !== null && this.now() < k.outageUntil)
      return { status: 503, why: `outage until ${new Date(k.outageUntil).toISOString()}` };
    if (k.throttleNext > 0) {
      k.throttleNext--;
      return { status: 429, retryAfterSeconds: k.retryAfterSeconds, why: 'throttled (knob throttleNext)' };
    }
    if (k.failNext > 0) {
      k.failNext--;
      return { status: 503, why: 'failure (knob failNext)' };
    }
    if (endpoint === 'comunicacion' && k.failComunicacion)
      return { status: 503, why: 'comunicacion failing (knob failComunicacion)' };
    if (k.errorRate > 0 && Math.random() < k.errorRate) return { status: 503, why: 'random failure (knob errorRate)' };
    return undefined;
  }

  /** Whether this crear's answer is to be lost by resetting its connection (consumes resetCrearNext). */
  losesCrearAnswer(): boolean {
    if (this.knobs.resetCrearNext === 0) return false;
    this.knobs.resetCrearNext--;
    return true;
  }

  issueToken(usuario: string, contrasena: string): { token: string; expiraEn: number } | undefined {
    if (usuario !== this.credentials.username || contrasena !== this.credentials.password) return undefined;
    const token = randomBytes(24).toString('base64url');
    this.tokens.set(token, this.now() + this.knobs.tokenTtlSeconds * 1000);
    return { token, expiraEn: this.knobs.tokenTtlSeconds };
  }

  tokenValid(token: string | undefined): boolean {
    const expires = token === undefined ? undefined : this.tokens.get(token);
    return expires !== undefined && this.now() < expires;
  }

  /** An earlier acceptance under this idempotency key: the same submission, or a conflict if the document differs. */
  replay(key: string, document: unknown): { submission: Submission } | { conflict: true } | undefined {
    const earlier = this.byKey.get(key);
    if (!earlier) return undefined;
    if (earlier.hash !== requestFingerprint(document)) return { conflict: true };
    this.replays++;
    return { submission: earlier.submission };
  }

  /** Accepts a schema-valid document: decides every record's outcome now, with the knobs now in force. */
  accept(document: unknown, idempotencyKey: string | null): Submission {
    const located = notebookBlocks(document);
    const idsOf = (section: Section) => located.filter((b) => b.section === section).map((b) => b.id);
    const ids = idsOf('TratamFito');
    const seen = new Map<string, number>();
    for (const b of located) seen.set(heldKey(b.section, b.id), (seen.get(heldKey(b.section, b.id)) ?? 0) + 1);
    // rejectIds names treatments (IdAjenaTratamFito), as it always has.
    const reject = new Set(this.knobs.rejectIds);
    const results: RecordResult[] = located.map(({ section, id, block: b }) => {
      const errores: IuwsErrorItem[] = [];
      const { id: idField, noun } = SECTIONS[section];
      if (section === 'TratamFito' && reject.has(id))
        errores.push({ codigo: 'SIM_RECHAZADO', descripcion: `El simulador rechaza el tratamiento ${id} (rejectIds)` });
      if ((seen.get(heldKey(section, id)) ?? 0) > 1) {
        errores.push({
          codigo: 'IDAJENA_DUPLICADO',
          descripcion: `${idField} ${id} aparece más de una vez en el documento`,
        });
      }
      const start = dayNumber(b.FechaInicio);
      const end = dayNumber(b.FechaFin);
      if (start !== undefined && end !== undefined && start > end) {
        errores.push({
          codigo: 'FECHAS_INCOHERENTES',
          descripcion: `FechaInicio ${String(b.FechaInicio)} es posterior a FechaFin ${String(b.FechaFin)}`,
        });
      }
      if (b.Borrar === true && !this.known.has(heldKey(section, id))) {
        errores.push({
          codigo: section === 'TratamFito' ? 'TRATAMIENTO_NO_EXISTE' : 'FERTILIZACION_NO_EXISTE',
          descripcion: `No hay ${noun} ${id} que borrar`,
        });
      }
      const resultado = errores.length ? ('ERROR' as const) : ('OK' as const);
      return section === 'TratamFito'
        ? { IdAjenaTratamFito: id, resultado, errores }
        : { IdAjenaFerti: id, resultado, errores };
    });
    results.forEach((r, i) => {
      if (r.resultado !== 'OK') return;
      const { codigoRea, section, id, block } = located[i]!;
      const key = heldKey(section, id);
      this.known.add(key);
      if (block.Borrar === true) this.held.delete(key);
      else
        this.held.set(key, {
          section,
          id,
          entry:
            section === 'TratamFito'
              ? { codigoRea, IdAjenaTratamFito: id, tratamiento: block }
              : { codigoRea, IdAjenaFerti: id, fertilizacion: block },
        });
    });
    for (const id of new Set(ids)) this.recordCounts.set(id, (this.recordCounts.get(id) ?? 0) + 1);
    const at = this.now();
    const submission: Submission = {
      idPeticion: `SIM-${this.prefix}-${String(++this.sequence).padStart(6, '0')}`,
      idempotencyKey,
      receivedAt: new Date(at).toISOString(),
      ids,
      fertilizationIds: idsOf('Fertilizacion'),
      document,
      readyAt: at + this.knobs.processingMs,
      results,
    };
    this.submissions.push(submission);
    this.byId.set(submission.idPeticion, submission);
    if (idempotencyKey !== null) this.byKey.set(idempotencyKey, { submission, hash: requestFingerprint(document) });
    return submission;
  }

  /** The outcome of a submission as comprobarEstado answers it; undefined for an unknown id. */
  status(
    idPeticion: string,
  ): { estado: 'PENDIENTE' | 'EN_PROCESO' | 'FINALIZADO'; resultados: RecordResult[] } | undefined {
    const s = this.byId.get(idPeticion);
    if (!s) return undefined;
    const left = s.readyAt - this.now();
    if (left <= 0) return { estado: 'FINALIZADO', resultados: s.results };
    const started = Date.parse(s.receivedAt);
    return { estado: left > (s.readyAt - started) / 2 ? 'PENDIENTE' : 'EN_PROCESO', resultados: [] };
  }

  listSubmissions(withDocuments: boolean): SubmissionView[] {
    return this.submissions.map((s) => ({
      idPeticion: s.idPeticion,
      idempotencyKey: s.idempotencyKey,
      receivedAt: s.receivedAt,
      ids: s.ids,
      fertilizationIds: s.fertilizationIds,
      estado: this.status(s.idPeticion)!.estado,
      results: s.results,
      ...(withDocuments ? { document: s.document } : {}),
    }));
  }

  /** The treatments SIEX holds now, in IdAjena order (one holding's entries when `codigoRea` is given). */
  notebook(codigoRea?: string): NotebookEntry[] {
    return this.heldOf('TratamFito', codigoRea).map((e) => e.entry as NotebookEntry);
  }

  /** The fertilizations SIEX holds now, in IdAjenaFerti order. */
  fertilizations(codigoRea?: string): FertilizationNotebookEntry[] {
    return this.heldOf('Fertilizacion', codigoRea).map((e) => e.entry as FertilizationNotebookEntry);
  }

  private heldOf(section: Section, codigoRea: string | undefined): HeldBlock[] {
    return [...this.held.values()]
      .filter((e) => e.section === section && (codigoRea === undefined || e.entry.codigoRea === codigoRea))
      .sort((a, b) => a.id - b.id);
  }

  stats(): SimulatorStats {
    const records = Object.fromEntries(
      [...this.recordCounts].sort((a, b) => a[0] - b[0]).map(([id, n]) => [String(id), n]),
    );
    return {
      calls: { ...this.calls },
      status: structuredClone(this.statuses),
      submissions: this.submissions.length,
      replays: this.replays,
      records,
      duplicates: [...this.recordCounts].filter(([, n]) => n > 1).map(([id]) => id),
    };
  }
}
