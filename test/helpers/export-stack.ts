import { randomInt } from 'node:crypto';
import { PhytoRequest } from '../../shared/phyto/wire';
import { ClientRegistration } from '../../shared/clients/client-registration';
import { Farm } from '../../shared/farms/farm';
import { mailStubControl } from '../../local/mail-stub/control';
import { OutboxEntry } from '../../local/mail-stub/server';
import { cueValidator } from './cue-schema';
import { call, gatewayUrl, Keys, Reply } from './http';
import { body, farmOverHttp, phytoFarm, register, seedPhyto, testClient, uniqueRea } from './phyto-stack';

/**
 * What the export tests (issue 4) share: a farm SIEX can take (14-character REA code, a DGC on every enclosure),
 * records registered over HTTP with the SIEX fields (infection, tj, efficacy), and the export / jobstatus /
 * jobresult calls in every spelling the spec shows. Farms and records go through the shared stack's gateway; the
 * export calls take the gateway to talk to: the shared stack's by default, or a private runner's
 * (export-private-stack.ts), which shares its storage.
 */

export const EXPORT_PATHS = ['/v1/entities/siex/exportCUE', '/v1/siex/exportCUE/'] as const;
export const JOB_PREFIXES = ['/api-service/v1/entities', '/v1/entities'] as const;

/** The statuses of docs/architecture.md, "Export pipeline", by id. */
const STATUS = {
  1: 'Iniciando',
  2: 'EnProceso',
  3: 'FinalizadoCompleto',
  4: 'FinalizadoConErrores',
  5: 'Fallido',
} as const;

/**
 * What SIEX needs beyond the spec's request (docs/architecture.md, "Export pipeline"): codes of the official catalogues,
 * and the equipment: by hand, with a backpack sprayer (UNE 060303013) the ERP names `MOCHILA-1`, since SIEX needs an
 * identifier for every equipment and the gateway makes none up (issue 23).
 */
export const SIEX_FIELDS = {
  infection: { type: 'TypeInfection', kind: 'enfermedad', id: '532', name: 'Repilo del olivo, Venturia oleaginea' },
  tj: [{ type: 'TypeJustification', id: '1', name: 'Superación de umbrales' }],
  efficacy: { type: 'TypeEfficacy', id: '1', name: 'Buena', detail: '' },
  manual: true,
  machine: [{ type: 'Machine', id: '060303013', name: 'Mochila 16 L', roma: '', inspection: '', ref: 'MOCHILA-1' }],
} satisfies Partial<PhytoRequest>;

/** `phytoFarm` with what SIEX requires of the farm: a 14-character REA code and a DGC code on every enclosure. */
export function sendableFarm(rea: string, vineEnclosures = 4, year?: number): Farm & { codigoRea: string } {
  const farm = phytoFarm(rea, vineEnclosures, year);
  return {
    ...farm,
    codigoRea: `ES46${String(randomInt(1e9)).padStart(10, '0')}`,
    crops: farm.crops.map((c) => ({
      ...c,
      parcels: c.parcels.map((p) => ({
        ...p,
        sigpac: p.sigpac.map((s) => ({ ...s, dgc: String(randomInt(1, 2 ** 40)) })),
      })),
    })),
  };
}

/**
 * A farm SIEX can take (REA code, DGCs) whose first vine enclosure is in a nitrate-vulnerable zone: the first vine
 * idcp is the vulnerable one, the others and the olive grove are not.
 */
export function nitrateVulnerableFarm(code: string): Farm {
  const farm = sendableFarm(code);
  return {
    ...farm,
    crops: farm.crops.map((c, ci) => ({
      ...c,
      parcels: c.parcels.map((p, pi) => ({
        ...p,
        sigpac: p.sigpac.map((s, si) => (ci === 0 && pi === 0 && si === 0 ? { ...s, nitrateVulnerable: true } : s)),
      })),
    })),
  };
}

export interface ExportFarm {
  keys: Keys;
  client: ClientRegistration;
  rea: string;
  /** The REA code SIEX files the farm's blocks under: what the simulator's notebook is read by. */
  codigoRea: string;
  agrifarmId: string;
  vine: string[];
  olive: string;
}

/** Imports a sendable farm and a client that sees it, with an address of its own. */
export async function exportFarm(label: string, vineEnclosures = 4): Promise<ExportFarm> {
  const rea = uniqueRea();
  const client = testClient(label, [rea], { email: `${label}-${rea.toLowerCase()}@erp.example` });
  const sendable = sendableFarm(rea, vineEnclosures);
  await seedPhyto({ farms: [sendable], clients: [client] });
  const keys = { sidKey: client.sidKey, apiKey: client.apiKey };
  const farm = await farmOverHttp(keys, rea);
  return { keys, client, rea, codigoRea: sendable.codigoRea, ...farm };
}

/**
 * Registers `n` records over HTTP (the copper product without count or interval limits, one vine enclosure each, in
 * turn) and returns their URNs. `siex` replaces the SIEX fields (e.g. without efficacy).
 */
export async function registerRecords(
  farm: ExportFarm,
  n: number,
  siex: Partial<PhytoRequest> = SIEX_FIELDS,
): Promise<string[]> {
  const urns: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await register(farm.keys, farm.agrifarmId, body({ idcp: [farm.vine[i % farm.vine.length]], ...siex }));
    if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`);
    urns.push(res.json[0].id);
  }
  return urns;
}

export const recordNumber = (urn: string): number => Number(urn.split(':').pop());

/** One request to a gateway (`base`), with the client's keys; the body, when given, as JSON. */
export async function request(
  base: string,
  method: 'GET' | 'POST',
  path: string,
  options: { keys?: Keys; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const payload = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const json: Record<string, string> = payload !== undefined ? { 'Content-Type': 'application/json' } : {};
  return call(method, path, { base, keys: options.keys, headers: { ...json, ...options.headers }, body: payload });
}

export interface GatewayCalls {
  exportCue(
    farm: ExportFarm,
    ids: string[],
    options?: { path?: string; headers?: Record<string, string>; keys?: Keys },
  ): Promise<Reply>;
  status(keys: Keys, jobId: number | string, prefix?: string): Promise<Reply>;
  result(keys: Keys, jobId: number | string, prefix?: string): Promise<Reply>;
  /** Polls jobstatus until `done` says so; returns every status seen (ids) and the last answer. */
  waitFor(
    keys: Keys,
    jobId: number,
    done: (job: any) => boolean,
    options?: { timeoutMs?: number; intervalMs?: number; prefix?: string },
  ): Promise<{ job: any; seen: number[] }>;
  settled(keys: Keys, jobId: number, options?: { timeoutMs?: number }): Promise<{ job: any; seen: number[] }>;
}

/** The export and job calls against `base` (default: the shared stack's gateway). */
export function gatewayCalls(base?: string): GatewayCalls {
  const calls: GatewayCalls = {
    exportCue: (farm, ids, options = {}) =>
      request(
        base ?? gatewayUrl(),
        'POST',
        `${options.path ?? EXPORT_PATHS[0]}?agrifarmId=${encodeURIComponent(farm.agrifarmId)}`,
        {
          keys: options.keys ?? farm.keys,
          body: ids.map((id) => ({ id })),
          ...(options.headers ? { headers: options.headers } : {}),
        },
      ),
    status: (keys, jobId, prefix = JOB_PREFIXES[0]) =>
      request(base ?? gatewayUrl(), 'GET', `${prefix}/jobstatus?jobId=${jobId}`, { keys }),
    result: (keys, jobId, prefix = JOB_PREFIXES[0]) =>
      request(base ?? gatewayUrl(), 'GET', `${prefix}/jobresult?jobId=${jobId}`, { keys }),
    async waitFor(keys, jobId, done, { timeoutMs = 60_000, intervalMs = 150, prefix } = {}) {
      const deadline = Date.now() + timeoutMs;
      const seen: number[] = [];
      for (;;) {
        const res = await calls.status(keys, jobId, prefix);
        if (res.status === 429) {
          // The per-client limit (100/min) may be reached by a long poll: wait as told.
          await sleep(Number(res.headers.get('retry-after') ?? '1') * 1000);
          continue;
        }
        if (res.status !== 200) throw new Error(`jobstatus ${jobId}: ${res.status} ${res.text}`);
        const id = Number(res.json.status.id);
        if (seen[seen.length - 1] !== id) seen.push(id);
        if (done(res.json)) return { job: res.json, seen };
        if (Date.now() > deadline)
          throw new Error(
            `job ${jobId} still ${JSON.stringify(res.json)} after ${timeoutMs} ms (statuses seen: ${seen.join(' → ')})`,
          );
        await sleep(intervalMs);
      }
    },
    settled: (keys, jobId, options = {}) => calls.waitFor(keys, jobId, (job) => Number(job.status.id) >= 3, options),
  };
  return calls;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Polls `probe` until it returns something other than undefined. The ceiling is one only a hang reaches (jest's own is
 * 120 s): a loaded machine makes the wait longer, never the test fail.
 */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 60_000,
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}

/** The outcome e-mails of a job in a mail stub's outbox (the subject names the job). */
export async function mailsOfJob(mailUrl: string, jobId: number): Promise<OutboxEntry[]> {
  const outbox = await mailStubControl(mailUrl).outbox();
  return outbox.filter((m) => new RegExp(`^SIEX (export|deletion) job ${jobId}:`).test(m.subject));
}

/**
 * The job's outcome e-mail once it is there; then waits a little longer and checks it stayed alone, since a
 * duplicate would come from a later delivery.
 */
export async function theOnlyMail(mailUrl: string, jobId: number, settleMs = 1500): Promise<OutboxEntry> {
  await eventually(`the e-mail of job ${jobId}`, async () =>
    (await mailsOfJob(mailUrl, jobId)).length > 0 ? true : undefined,
  );
  await sleep(settleMs);
  const mails = await mailsOfJob(mailUrl, jobId);
  if (mails.length !== 1)
    throw new Error(`job ${jobId} sent ${mails.length} e-mails: ${mails.map((m) => m.subject).join(' | ')}`);
  return mails[0];
}

/** Every document's schema errors (ajv), by submission; empty when all validate against the official schema. */
export function schemaProblems(submissions: { idPeticion: string; document?: unknown }[]): string[] {
  const validate = cueValidator();
  return submissions.flatMap((s) =>
    validate(s.document) ? [] : [`${s.idPeticion}: ${JSON.stringify(validate.errors?.slice(0, 3))}`],
  );
}

/**
 * The spec's JobAsync, written out by hand (not from the zod schemas): exactly `type`, `id` (string), `inidate`,
 * `status { type, id (string), name }`, an integer `percentage` and `error` (null, or `{ code, message }` when the
 * job failed). Returns the status id as a number.
 */
export function checkJobShape(v: any, jobId: number): number {
  expect(Object.keys(v).sort()).toEqual(['error', 'id', 'inidate', 'percentage', 'status', 'type']);
  expect(v.type).toBe('JobAsync');
  expect(v.id).toBe(String(jobId));
  expect(v.inidate).toMatch(/^\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2}$/);
  expect(Object.keys(v.status).sort()).toEqual(['id', 'name', 'type']);
  expect(v.status.type).toBe('JobStatus');
  expect(typeof v.status.id).toBe('string');
  const id = Number(v.status.id) as keyof typeof STATUS;
  expect(v.status.name).toBe(STATUS[id]);
  expect(Number.isInteger(v.percentage) && v.percentage >= 0 && v.percentage <= 100).toBe(true);
  if (id === 5) expect(Object.keys(v.error).sort()).toEqual(['code', 'message']);
  else expect(v.error).toBeNull();
  return id;
}

/**
 * The spec's job result: `data` items `{ result: "ok", id: <integer> }`, `error` items with the record id and why;
 * beside the seed's integer, each names its record by URN (issue 38), whose number is that integer.
 */
export function checkJobResultShape(v: any): void {
  expect(Object.keys(v).sort()).toEqual(['data', 'error']);
  for (const d of v.data) {
    expect(Object.keys(d).sort()).toEqual(['id', 'result', 'urn']);
    expect(d.result).toBe('ok');
    expect(Number.isInteger(d.id)).toBe(true);
    expect(d.urn).toBe(`urn:ngsi-ld:AgriPhytosanitary:${d.id}`);
  }
  for (const e of v.error) {
    expect(Object.keys(e).sort()).toEqual(['code', 'id', 'message', 'result', 'urn']);
    expect(e.result).toBe('error');
    expect(Number.isInteger(e.id)).toBe(true);
    expect(e.urn).toBe(`urn:ngsi-ld:AgriPhytosanitary:${e.id}`);
    expect(typeof e.code).toBe('string');
    expect(typeof e.message).toBe('string');
  }
}

/** The codes of a problem answer's `errors`, with the status: `[409, ['RECORD_ALREADY_EXPORTED', ...]]`. */
export function problemOf(res: Reply): [number, string[]] {
  return [res.status, (res.json?.errors ?? []).map((e: { code: string }) => e.code)];
}
