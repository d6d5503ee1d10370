import { randomBytes } from 'node:crypto';
import { requestFingerprint } from '../../shared/idempotency/idempotency';
import { CueSection, HoldingResponse, NotebookResponse, RecordResult } from '../../shared/siex/iuws-protocol';
import { Control, DEFAULT_KNOBS, Knobs, unknownSections } from './knobs';
import { documentBlocks, LocatedBlock, NotebookEntry, Notebooks } from './notebook';
import { blockVerdicts } from './verdicts';

/**
 * The SIEX simulator's state and rules, without HTTP (server.ts serves them): the knobs, issued tokens, accepted
 * submissions with their idempotency keys and per-block outcomes, the notebooks SIEX keeps, and the statistics the
 * tests read. Every activity section of the schema is taken alike: a block is known by its section and IdAjena.
 */

export type IuwsEndpoint = 'comunicacion' | 'crear' | 'comprobarEstado' | 'exportar' | 'exportarREA';

/** A block seeded into a holding's notebook as if another notebook had sent it (POST /_control/notebook). */
export interface SeededEntry {
  codigoRea: string;
  section: string;
  block: Record<string, unknown>;
  /** The notebook it came from (`IdCuaderno`, an integer in the schema). */
  notebook?: number;
}

/** The IdAjena values of a document, by section, in the document's order (sections without blocks left out). */
type IdsBySection = Record<string, number[]>;

interface Submission {
  idPeticion: string;
  idempotencyKey: string | null;
  receivedAt: string;
  ids: IdsBySection;
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
  ids: IdsBySection;
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
  /** Per section and IdAjena, how many accepted submissions contained the block. */
  records: Record<string, Record<string, number>>;
  /** The blocks in more than one accepted submission. */
  duplicates: { section: string; id: number }[];
}

interface SimulatorOptions {
  /** The credentials comunicacion accepts. */
  credentials: { username: string; password: string };
  /** The activity sections of the CUE schema (cue-sections.ts), each with its IdAjena field. */
  sections: readonly CueSection[];
  /** The knobs at start, over the defaults, which a reset restores. */
  knobs?: Partial<Knobs>;
  now?: () => number;
}

function idsBySection(located: readonly LocatedBlock[]): IdsBySection {
  const ids: IdsBySection = {};
  for (const { section, id } of located) (ids[section] ??= []).push(id);
  return ids;
}

export class SiexSimulatorState {
  knobs: Knobs;
  private tokens = new Map<string, number>();
  private submissions: Submission[] = [];
  private byId = new Map<string, Submission>();
  private byKey = new Map<string, { submission: Submission; hash: string }>();
  private readonly notebooks = new Notebooks();
  private sequence = 0;
  private readonly prefix = randomBytes(3).toString('hex').toUpperCase();
  /** The holdings `exportarREA` answers, by REA code and campaign (POST /_control/holdings). */
  private readonly holdings = new Map<string, HoldingResponse>();
  private calls = SiexSimulatorState.noCalls();
  private statuses: Record<string, Record<string, number>> = {};
  private replays = 0;
  /** Per section and IdAjena, the accepted submissions that contained the block. */
  private recordCounts = new Map<string, Map<number, number>>();
  private readonly credentials: SimulatorOptions['credentials'];
  private readonly sections: readonly CueSection[];
  private readonly initial: Partial<Knobs>;
  private readonly now: () => number;

  constructor(options: SimulatorOptions) {
    this.credentials = options.credentials;
    this.sections = options.sections;
    this.initial = options.knobs ?? {};
    this.now = options.now ?? Date.now;
    this.knobs = this.startKnobs();
  }

  private static noCalls(): Record<IuwsEndpoint | 'other', number> {
    return { comunicacion: 0, crear: 0, comprobarEstado: 0, exportar: 0, exportarREA: 0, other: 0 };
  }

  private startKnobs(): Knobs {
    return { ...structuredClone(DEFAULT_KNOBS), ...structuredClone(this.initial) };
  }

  /** Whether the schema has this activity section. */
  hasSection(section: string): boolean {
    return this.sections.some((s) => s.section === section);
  }

  reset(): void {
    this.knobs = this.startKnobs();
    this.tokens.clear();
    this.submissions = [];
    this.byId.clear();
    this.byKey.clear();
    this.notebooks.clear();
    this.holdings.clear();
    this.calls = SiexSimulatorState.noCalls();
    this.statuses = {};
    this.replays = 0;
    this.recordCounts.clear();
  }

  /** What a valid control request asks that cannot be: sections the schema does not have. */
  controlProblems(c: Control): string[] {
    const known = new Set(this.sections.map((s) => s.section));
    return unknownSections(c.rejectIds ?? [], known).map(
      (section) => `rejectIds: no section ${section} in the CUE schema (${[...known].join(', ')})`,
    );
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

  /** Accepts a schema-valid document: decides every block's outcome now, with the knobs now in force. */
  accept(document: unknown, idempotencyKey: string | null): Submission {
    const located = documentBlocks(document, this.sections);
    const results = blockVerdicts(located, {
      idAjena: new Map(this.sections.map((s) => [s.section, s.idAjena])),
      rejectIds: this.knobs.rejectIds,
      knows: (section, id) => this.notebooks.knows(section, id),
    });
    results.forEach((r, i) => {
      if (r.resultado === 'OK') this.notebooks.keep(located[i]!);
    });
    const ids = idsBySection(located);
    for (const [section, sectionIds] of Object.entries(ids)) {
      const counts = this.recordCounts.get(section) ?? new Map<number, number>();
      for (const id of new Set(sectionIds)) counts.set(id, (counts.get(id) ?? 0) + 1);
      this.recordCounts.set(section, counts);
    }
    const at = this.now();
    const submission: Submission = {
      idPeticion: `SIM-${this.prefix}-${String(++this.sequence).padStart(6, '0')}`,
      idempotencyKey,
      receivedAt: new Date(at).toISOString(),
      ids,
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
      estado: this.status(s.idPeticion)!.estado,
      results: s.results,
      ...(withDocuments ? { document: s.document } : {}),
    }));
  }

  /** The blocks of `section` SIEX holds now, in IdAjena order (one holding's when `codigoRea` is given). */
  notebook(section: string, codigoRea?: string): NotebookEntry[] {
    return this.notebooks.section(section, codigoRea);
  }

  /** Every section's blocks SIEX holds now (one holding's when `codigoRea` is given). */
  wholeNotebook(codigoRea?: string): Record<string, NotebookEntry[]> {
    return this.notebooks.all(codigoRea);
  }

  /** What `exportar` answers: the holding's blocks held now, of `campaign` (every campaign's without it). */
  exportar(codigoRea: string, campaign?: number): NotebookResponse {
    return this.notebooks.exported(codigoRea, campaign);
  }

  /** What `exportarREA` answers: the holding in the campaign, as seeded; undefined when none was. */
  exportarRea(codigoRea: string, campaign: number): HoldingResponse | undefined {
    return this.holdings.get(`${codigoRea}:${campaign}`);
  }

  /** Keeps a holding for `exportarREA`, replacing the one of the same REA code and campaign. */
  seedHolding(holding: HoldingResponse): void {
    this.holdings.set(`${holding.CodigoRea}:${holding.Campana}`, holding);
  }

  /**
   * Keeps a block in a holding's notebook as if another notebook had sent it and SIEX had accepted it; why not (a
   * section the schema lacks, a block without its integer IdAjena), or undefined when kept.
   */
  seedEntry({ codigoRea, section, block, notebook }: SeededEntry): string | undefined {
    const field = this.sections.find((s) => s.section === section)?.idAjena;
    if (field === undefined) return `no section ${section} in the CUE schema`;
    const id = block[field];
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1)
      return `a ${section} block is named by a positive integer ${field}`;
    this.notebooks.keep({ codigoRea, section, id, ...(notebook !== undefined ? { notebook } : {}), block });
    return undefined;
  }

  /** Drops a block SIEX holds, as a SIEX that lost it; false when it held none. */
  forgetEntry(section: string, id: number): boolean {
    return this.notebooks.forget(section, id);
  }

  stats(): SimulatorStats {
    const sections = [...this.recordCounts].sort(([a], [b]) => a.localeCompare(b));
    const byId = (counts: Map<number, number>) => [...counts].sort((a, b) => a[0] - b[0]);
    return {
      calls: { ...this.calls },
      status: structuredClone(this.statuses),
      submissions: this.submissions.length,
      replays: this.replays,
      records: Object.fromEntries(
        sections.map(([section, counts]) => [section, Object.fromEntries(byId(counts).map(([id, n]) => [id, n]))]),
      ),
      duplicates: sections.flatMap(([section, counts]) =>
        byId(counts)
          .filter(([, n]) => n > 1)
          .map(([id]) => ({ section, id })),
      ),
    };
  }
}
