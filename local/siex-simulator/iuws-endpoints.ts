import { IncomingMessage } from 'node:http';
import {
  CAMPAIGN_PARAM,
  CueSection,
  IDEMPOTENCY_HEADER,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  tokenRequestSchema,
} from '../../shared/siex/iuws-protocol';
import { CueValidator, loadCueSchema } from './cue-schema';
import { SiexSimulatorState } from './simulator';

/**
 * What the simulator's IUWS endpoints answer (server.ts documents them and serves them through the knobs):
 * comunicacion, crear, comprobarEstado and the reads exportar and exportarREA, each as [status, body], or an
 * HttpProblem thrown.
 */

const MAX_SCHEMA_ERRORS = 100;

/** A refusal, answered with `status` and `body` wherever in a call it is thrown. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}`);
  }
}

export function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new HttpProblem(400, {
      codigo: 'JSON_INVALIDO',
      descripcion: `${what} is not JSON: ${(e as Error).message}`,
    });
  }
}

/**
 * The official CUE schema crear validates against and the sections it defines, or why it could not be loaded (crear
 * then answers 500).
 */
type Schema = { validator: CueValidator; sections: CueSection[] } | { problem: string };

export function loadSchema(path: string, log: (line: string) => void): Schema {
  try {
    return loadCueSchema(path);
  } catch (e) {
    const problem = (e as Error).message;
    log(`SIEX simulator: ${problem}; every crear will be refused with 500 until it is there (restart the simulator)`);
    return { problem };
  }
}

/** What the endpoints answer from: the simulated SIEX, its knobs and records, and the schema. */
export interface Simulator {
  state: SiexSimulatorState;
  schema: Schema;
}

function bearer(req: IncomingMessage): string | undefined {
  const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
  return m?.[1];
}

function requireToken(state: SiexSimulatorState, req: IncomingMessage): void {
  if (!state.tokenValid(bearer(req))) {
    throw new HttpProblem(401, {
      codigo: 'TOKEN_INVALIDO',
      descripcion: 'missing, expired or revoked token: ask comunicacion for one',
    });
  }
}

export function comunicacion(state: SiexSimulatorState, body: string): [number, unknown] {
  const parsed = tokenRequestSchema.safeParse(parseJson(body, 'the body'));
  if (!parsed.success) return [400, { codigo: 'PETICION_INVALIDA', descripcion: 'expected { usuario, contrasena }' }];
  const issued = state.issueToken(parsed.data.usuario, parsed.data.contrasena);
  if (!issued) return [401, { codigo: 'CREDENCIALES_INVALIDAS', descripcion: 'unknown user or wrong password' }];
  return [200, issued];
}

/** The crear's idempotency key (null when it sent none), or the refusal of one of no length or too long. */
function idempotencyKeyOf(req: IncomingMessage): { key: string | null } | { refusal: [number, unknown] } {
  const key = req.headers[IDEMPOTENCY_HEADER.toLowerCase()];
  if (typeof key !== 'string') return { key: null };
  if (key.length > 0 && key.length <= MAX_IDEMPOTENCY_KEY_LENGTH) return { key };
  const descripcion = `${IDEMPOTENCY_HEADER} must have 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`;
  return { refusal: [400, { codigo: 'CLAVE_IDEMPOTENCIA', descripcion }] };
}

export function crear({ state, schema }: Simulator, req: IncomingMessage, body: string): [number, unknown] {
  requireToken(state, req);
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
    return [415, { codigo: 'TIPO_CONTENIDO', descripcion: 'Content-Type must be application/json' }];
  }
  const idempotency = idempotencyKeyOf(req);
  if ('refusal' in idempotency) return idempotency.refusal;
  const idempotencyKey = idempotency.key;
  const document = parseJson(body, 'the CUE document');
  if ('problem' in schema)
    return [500, { codigo: 'ESQUEMA_NO_DISPONIBLE', descripcion: `the simulator cannot validate: ${schema.problem}` }];
  if (idempotencyKey !== null) {
    const earlier = state.replay(idempotencyKey, document);
    if (earlier && 'conflict' in earlier) {
      return [
        409,
        {
          codigo: 'IDEMPOTENCIA_CONFLICTO',
          descripcion: `${IDEMPOTENCY_HEADER} ${idempotencyKey} was used before with a different document`,
        },
      ];
    }
    if (earlier) return [202, { idPeticion: earlier.submission.idPeticion }];
  }
  const validation = schema.validator(document);
  if (!validation.ok) {
    return [
      400,
      {
        codigo: 'ESQUEMA_INVALIDO',
        descripcion: `the document does not follow the CUE schema 3.11.4 (${validation.errors.length} violation${validation.errors.length === 1 ? '' : 's'})`,
        errores: validation.errors.slice(0, MAX_SCHEMA_ERRORS),
      },
    ];
  }
  return [202, { idPeticion: state.accept(document, idempotencyKey).idPeticion }];
}

export function comprobarEstado(state: SiexSimulatorState, req: IncomingMessage, id: string): [number, unknown] {
  requireToken(state, req);
  const outcome = state.status(id);
  if (!outcome) return [404, { codigo: 'PETICION_DESCONOCIDA', descripcion: `no request ${id}` }];
  return [200, outcome];
}

/** `?campana=YYYY`, or undefined when absent; a malformed one is refused. */
function campaignOf(url: URL): number | undefined {
  const text = url.searchParams.get(CAMPAIGN_PARAM);
  if (text === null) return undefined;
  if (!/^\d{4}$/.test(text))
    throw new HttpProblem(400, { codigo: 'CAMPANA_INVALIDA', descripcion: `${CAMPAIGN_PARAM} is a year (YYYY)` });
  return Number(text);
}

/** A read of what SIEX holds of a holding, by its REA code in the path and the query. */
type HoldingRead = (state: SiexSimulatorState, req: IncomingMessage, codigoRea: string, url: URL) => [number, unknown];

/** GET /exportar/{codigoRea}[?campana=YYYY]: the holding's notebook as SIEX holds it now (an unknown one is empty). */
export const exportar: HoldingRead = (state, req, codigoRea, url) => {
  requireToken(state, req);
  return [200, state.exportar(codigoRea, campaignOf(url))];
};

/** GET /exportarREA/{codigoRea}?campana=YYYY: the holding in the campaign, as seeded; 404 when none was. */
export const exportarRea: HoldingRead = (state, req, codigoRea, url) => {
  requireToken(state, req);
  const campaign = campaignOf(url);
  if (campaign === undefined)
    return [400, { codigo: 'CAMPANA_REQUERIDA', descripcion: `exportarREA needs ?${CAMPAIGN_PARAM}=YYYY` }];
  const holding = state.exportarRea(codigoRea, campaign);
  return holding
    ? [200, holding]
    : [404, { codigo: 'EXPLOTACION_DESCONOCIDA', descripcion: `no holding ${codigoRea} in campaign ${campaign}` }];
};
