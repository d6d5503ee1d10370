import { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { holdingResponseSchema, IUWS_PATHS } from '../../shared/siex/iuws-protocol';
import { badControlRequest, readBody, sendJson, serve } from '../http-json';
import { findProjectRoot } from '../stack';
import { cueSchemaPath } from '../siex-data';
import {
  comprobarEstado,
  comunicacion,
  crear,
  exportar,
  exportarRea,
  HttpProblem,
  loadSchema,
  parseJson,
  Simulator,
} from './iuws-endpoints';
import { Knobs, controlSchema, forgetSchema, knobsSchema, seedEntrySchema } from './knobs';
import { IuwsEndpoint, SiexSimulatorState } from './simulator';

/**
 * SIEX simulator: the IUWS endpoints of shared/siex/iuws-client.ts (protocol documented there) over plain HTTP, for
 * `npm start` and the tests. `node dist/local/siex-simulator/main.js --port N` or `startSiexSimulator({ port })`.
 *
 * Every activity section of the official CUE schema 3.11.4 is taken alike: the sections (`ActividadesExplotacion`'s
 * members) and the IdAjena field each one's blocks are named by are read from the schema at start (cue-sections.ts).
 * Each section's IdAjena is a sequence of its own, so a block is known by its section and IdAjena together.
 *
 * IUWS endpoints
 *   POST /comunicacion            { usuario, contrasena } → 200 { token, expiraEn } | 401 (credentials: --username /
 *                                 --password, default siex-local / siex-local)
 *   POST /crear                   Bearer token, Content-Type application/json, optional X-Idempotency-Key.
 *                                 → 202 { idPeticion }. Every body is validated against the official CUE schema 3.11.4
 *                                 (data/siex/, read at start; if it is missing, crear answers 500 saying so):
 *                                 invalid → 400 { codigo: ESQUEMA_INVALIDO, descripcion, errores: [ajv errors] }.
 *                                 Unparseable JSON → 400 JSON_INVALIDO; other content type → 415.
 *                                 Same idempotency key and same document → 202 with the first idPeticion, not counted
 *                                 as a new submission; same key, different document → 409 IDEMPOTENCIA_CONFLICTO.
 *   GET  /comprobarEstado/{id}    → 200 { estado, resultados }: PENDIENTE for the first half of processingMs after the
 *                                 crear, EN_PROCESO for the second, then FINALIZADO with one result per block of any
 *                                 section, in the document's order, named by its IdAjena field:
 *                                 { "<IdAjena field>": id, resultado, errores }; unknown id → 404 PETICION_DESCONOCIDA.
 *   GET  /exportar/{codigoRea}    [?campana=YYYY] → 200 { CUADERNO: [{ CodigoRea, IdCuaderno?, ActividadesExplotacion:
 *                                 { <Section>: [blocks] } }] }: the holding's notebook as SIEX holds it now (below), one
 *                                 item per notebook that sent blocks (IdCuaderno of its document, or of the seed), of
 *                                 the campaign only when given (a block's campaign is the year of its first Fec… date,
 *                                 notebook.ts campaignOf). A holding SIEX holds nothing of answers an empty CUADERNO.
 *   GET  /exportarREA/{codigoRea} ?campana=YYYY → 200 the holding as seeded (shared/siex/iuws-protocol.ts,
 *                                 holdingResponseSchema); 404 EXPLOTACION_DESCONOCIDA when none was seeded for the
 *                                 campaign; 400 CAMPANA_REQUERIDA without campana.
 *                                 FEGA names these two reads (Anexo VI, XEAGA) but does not publish their shapes: these
 *                                 are the simulator's, which the gateway's reads (shared/siex/iuws-register.ts) speak.
 *   Missing, expired or revoked token on crear / comprobarEstado / exportar / exportarREA → 401 TOKEN_INVALIDO.
 *
 * Per-block outcomes (decided when crear accepts, with the knobs then in force): ERROR with
 *   SIM_RECHAZADO          the block is in rejectIds
 *   IDAJENA_DUPLICADO      its section and IdAjena appear more than once in the document (every occurrence)
 *   FECHAS_INCOHERENTES    FechaInicio after FechaFin
 *   <SECTION>_NO_EXISTE    Borrar: true for a block of the section never accepted before (the section's name in
 *                          capitals: a Cosecha block's is COSECHA_NO_EXISTE)
 * otherwise OK.
 *
 * Knobs: POST /_control with JSON, any subset (unknown names are refused with 400); answers the knobs in force.
 *   latencyMs          delay before every IUWS answer (default 0)
 *   errorRate          0..1, share of IUWS calls answered 503 at random (default 0)
 *   outage             true: every IUWS call answers 503 (default false)
 *   outageUntil        epoch ms or ISO date: 503 until then; null clears it
 *   outageForMs        shorthand for outageUntil = now + outageForMs
 *   failNext           the next n IUWS calls answer 503 (deterministic errorRate)
 *   throttleNext       the next n IUWS calls answer 429 with Retry-After: retryAfterSeconds (default 1)
 *   failComunicacion   true: comunicacion answers 503 (tokens already issued keep working)
 *   rejectIds          blocks whose result is ERROR SIM_RECHAZADO (default []): each an IdAjena (that id in every
 *                      section) or { section, id } (that section's block only; a section the schema lacks is a 400)
 *   processingMs       time from crear to FINALIZADO (default 300)
 *   tokenTtlSeconds    validity of newly issued tokens (default 3600)
 *   expireTokens       true: revoke every issued token now (the next authorised call gets 401)
 *   crearAnswerDelayMs crear is processed on arrival and its answer held this long (SIEX slower than a client's
 *                      time-out: the client never learns that SIEX took the document)
 *   resetCrearNext     the next n crear calls are processed, then their connection is reset with no answer
 *   POST /_control/notebook    { codigoRea, section, block, notebook? }: keeps the block in the holding's notebook as
 *                          if another notebook (IdCuaderno `notebook`) had sent it → 204; a section the schema lacks or
 *                          a block without its integer IdAjena → 400
 *   POST /_control/notebook/forget  { section, idAjena }: SIEX loses the block it held → 204; 404 if it held none
 *   POST /_control/holdings    a holding as exportarREA answers it (holdingResponseSchema) → 204; it replaces the
 *                          one of the same CodigoRea and Campana
 *   GET  /_control         the knobs in force
 *   POST /_control/reset   knobs back to their start values (defaults, or --processing-ms / --latency-ms); forgets
 *                          tokens, submissions, idempotency keys, notebooks, holdings and statistics
 *
 * Inspection
 *   GET /_inspect/submissions   every accepted crear, in order: { idPeticion, idempotencyKey, receivedAt, ids (the
 *                               IdAjena values by section, in the document's order: { "<Section>": [ids] }), estado,
 *                               results (each named by its block's IdAjena field), document }; ?documents=false
 *                               leaves out the documents
 *   GET /_inspect/stats         { calls: { comunicacion, crear, comprobarEstado, other }, status: { <endpoint>:
 *                               { <HTTP status>: n } }, submissions, replays (idempotent repeats), records:
 *                               { <Section>: { <IdAjena>: accepted submissions containing it } }, duplicates:
 *                               [{ section, id } of blocks in more than one submission] }
 *   GET /_inspect/notebook/<Section>   what SIEX holds now of one section of the schema: [{ codigoRea, idAjena,
 *                               block }], the last version accepted under each IdAjena (a resend replaces it, Borrar
 *                               removes it), in IdAjena order; ?codigoRea=ES... one holding's. A section the schema
 *                               lacks → 404 SECCION_DESCONOCIDA.
 *   GET /_inspect/notebook      every section holding blocks now: { "<Section>": [the same entries] }; ?codigoRea=
 */

export interface SiexSimulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** The official CUE schema; default `<project root>/data/siex/cue-schema-3.11.4.json`. */
  schemaPath?: string;
  /** Credentials comunicacion accepts (default siex-local / siex-local). */
  username?: string;
  password?: string;
  /** Knobs at start, over the defaults; POST /_control/reset restores these. */
  knobs?: Partial<Knobs>;
  /** Start-up notes and warnings; default stderr. */
  log?: (line: string) => void;
  /** Also one line per request through `log`. */
  verbose?: boolean;
}

export interface RunningSiexSimulator {
  url: string;
  /** Why crear answers 500, when the schema could not be loaded. */
  schemaProblem?: string;
  /** The live state, for in-process callers (the HTTP inspection endpoints show the same). */
  state: SiexSimulatorState;
  stop(): Promise<void>;
}

export const SIMULATOR_DEFAULT_CREDENTIALS = { username: 'siex-local', password: 'siex-local' };
const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** The body as text; one too large is answered 413 like any other refusal. */
async function readText(req: IncomingMessage): Promise<string> {
  const tooLarge = () =>
    new HttpProblem(413, { codigo: 'CUERPO_DEMASIADO_GRANDE', descripcion: `more than ${MAX_BODY_BYTES} bytes` });
  return (await readBody(req, MAX_BODY_BYTES, tooLarge)).toString('utf8');
}

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One IUWS call as the knobs make it: counted, delayed by latencyMs, answered 503 or 429 when a failure is injected,
 * otherwise by `run`; a crear may lose its answer (connection reset) or hold it (crearAnswerDelayMs).
 */
async function answerIuws(
  state: SiexSimulatorState,
  req: IncomingMessage,
  res: ServerResponse,
  endpoint: IuwsEndpoint,
  run: (body: string) => [number, unknown],
): Promise<void> {
  state.countCall(endpoint);
  let status = 500;
  try {
    const body = await readText(req);
    if (state.knobs.latencyMs > 0) await delay(state.knobs.latencyMs);
    const failure = state.injectedFailure(endpoint);
    if (failure) {
      status = failure.status;
      const headers: Record<string, string> =
        failure.retryAfterSeconds !== undefined ? { 'retry-after': String(failure.retryAfterSeconds) } : {};
      sendJson(
        res,
        status,
        { codigo: status === 429 ? 'DEMASIADAS_PETICIONES' : 'SERVICIO_NO_DISPONIBLE', descripcion: failure.why },
        headers,
      );
      return;
    }
    const [code, answer] = run(body);
    status = code;
    if (endpoint === 'crear' && state.losesCrearAnswer()) {
      status = 0;
      res.socket?.destroy();
      return;
    }
    if (endpoint === 'crear' && state.knobs.crearAnswerDelayMs > 0) await delay(state.knobs.crearAnswerDelayMs);
    sendJson(res, code, answer);
  } catch (e) {
    status = e instanceof HttpProblem ? e.status : 500;
    sendJson(
      res,
      status,
      e instanceof HttpProblem ? e.body : { codigo: 'ERROR_INTERNO', descripcion: (e as Error).message },
    );
  } finally {
    state.countStatus(endpoint, status);
  }
}

/** POST /_control: the knobs given, over those in force; answers the knobs then in force. */
function control(state: SiexSimulatorState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  return controlWith(req, res, controlSchema, (c) => {
    const issues = state.controlProblems(c);
    if (issues.length > 0) return sendJson(res, 400, { error: 'bad control request', issues });
    sendJson(res, 200, state.control(c));
  });
}

/** A control call's JSON body checked by `schema`, then `then` with it; a body it refuses is a 400. */
async function controlWith<S extends z.ZodType>(
  req: IncomingMessage,
  res: ServerResponse,
  schema: S,
  then: (body: z.infer<S>) => void,
): Promise<void> {
  try {
    const parsed = schema.safeParse(parseJson(await readText(req), 'the control request'));
    if (!parsed.success) return sendJson(res, 400, badControlRequest(parsed.error));
    then(parsed.data);
  } catch (e) {
    sendJson(
      res,
      e instanceof HttpProblem ? e.status : 500,
      e instanceof HttpProblem ? e.body : { error: (e as Error).message },
    );
  }
}

const NOTEBOOK = '/_inspect/notebook';

/** Every endpoint by path (see the header), with 405 for a known path asked with another method. */
function route(sim: Simulator, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> | void {
  const { state } = sim;
  const path = url.pathname.replace(/\/+$/, '') || '/';
  const method = req.method ?? 'GET';
  const only = (allowed: string, then: () => Promise<void> | void) =>
    method === allowed
      ? then()
      : sendJson(
          res,
          405,
          { codigo: 'METODO_NO_PERMITIDO', descripcion: `${path} takes ${allowed}` },
          { allow: allowed },
        );
  const codigoRea = () => url.searchParams.get('codigoRea') ?? undefined;

  switch (path) {
    case IUWS_PATHS.token:
      return only('POST', () => answerIuws(state, req, res, 'comunicacion', (body) => comunicacion(state, body)));
    case IUWS_PATHS.submit:
      return only('POST', () => answerIuws(state, req, res, 'crear', (body) => crear(sim, req, body)));
    case '/_control':
      if (method === 'GET') return sendJson(res, 200, state.knobs);
      return only('POST', () => control(state, req, res));
    case '/_control/reset':
      return only('POST', () => {
        state.reset();
        sendJson(res, 200, state.knobs);
      });
    case '/_control/notebook':
      return only('POST', () =>
        controlWith(req, res, seedEntrySchema, (entry) => {
          const problem = state.seedEntry(entry);
          if (problem) sendJson(res, 400, { error: 'bad control request', issues: [problem] });
          else sendJson(res, 204, undefined);
        }),
      );
    case '/_control/notebook/forget':
      return only('POST', () =>
        controlWith(req, res, forgetSchema, ({ section, idAjena }) =>
          state.forgetEntry(section, idAjena)
            ? sendJson(res, 204, undefined)
            : sendJson(res, 404, { error: `SIEX holds no ${section} block ${idAjena}` }),
        ),
      );
    case '/_control/holdings':
      return only('POST', () =>
        controlWith(req, res, holdingResponseSchema, (holding) => {
          state.seedHolding(holding);
          sendJson(res, 204, undefined);
        }),
      );
    case '/_inspect/submissions':
      return only('GET', () =>
        sendJson(res, 200, state.listSubmissions(url.searchParams.get('documents') !== 'false')),
      );
    case '/_inspect/stats':
      return only('GET', () => sendJson(res, 200, state.stats()));
    case NOTEBOOK:
      return only('GET', () => sendJson(res, 200, state.wholeNotebook(codigoRea())));
  }
  if (path.startsWith(`${NOTEBOOK}/`)) {
    const section = decodeURIComponent(path.slice(NOTEBOOK.length + 1));
    return only('GET', () =>
      state.hasSection(section)
        ? sendJson(res, 200, state.notebook(section, codigoRea()))
        : sendJson(res, 404, { codigo: 'SECCION_DESCONOCIDA', descripcion: `no section ${section} in the CUE schema` }),
    );
  }
  for (const [prefix, endpoint, answer] of [
    [`${IUWS_PATHS.notebook}/`, 'exportar', exportar],
    [`${IUWS_PATHS.holding}/`, 'exportarREA', exportarRea],
  ] as const) {
    if (path.startsWith(prefix) && path.length > prefix.length && !path.slice(prefix.length).includes('/')) {
      const codigoRea = decodeURIComponent(path.slice(prefix.length));
      return only('GET', () => answerIuws(state, req, res, endpoint, () => answer(state, req, codigoRea, url)));
    }
  }
  const statusPrefix = `${IUWS_PATHS.status}/`;
  if (path.startsWith(statusPrefix) && path.length > statusPrefix.length) {
    const id = decodeURIComponent(path.slice(statusPrefix.length));
    return only('GET', () => answerIuws(state, req, res, 'comprobarEstado', () => comprobarEstado(state, req, id)));
  }
  state.countCall('other');
  state.countStatus('other', 404);
  sendJson(res, 404, { codigo: 'NO_ENCONTRADO', descripcion: `no endpoint ${method} ${url.pathname}` });
}

export async function startSiexSimulator(options: SiexSimulatorOptions = {}): Promise<RunningSiexSimulator> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const schema = loadSchema(options.schemaPath ?? cueSchemaPath(findProjectRoot(__dirname)), log);
  const state = new SiexSimulatorState({
    credentials: {
      username: options.username ?? SIMULATOR_DEFAULT_CREDENTIALS.username,
      password: options.password ?? SIMULATOR_DEFAULT_CREDENTIALS.password,
    },
    sections: 'sections' in schema ? schema.sections : [],
    knobs: knobsSchema.partial().parse(options.knobs ?? {}),
  });
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://simulator');
    if (options.verbose) log(`${req.method ?? 'GET'} ${url.pathname}${url.search}`);
    await route({ state, schema }, req, res, url);
  };
  const server = await serve(
    handle,
    (res, e) => sendJson(res, 500, { codigo: 'ERROR_INTERNO', descripcion: e.message }),
    options,
  );
  return { ...server, ...('problem' in schema ? { schemaProblem: schema.problem } : {}), state };
}
