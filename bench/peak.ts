import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { DateTime } from 'luxon';
import { Dataset } from '../shared/backoffice/dataset-schema';
import { importDataset } from '../shared/backoffice/import';
import { ZONE } from '../shared/domain/dates';
import { FarmStore } from '../shared/farms/farm-store';
import { client, farmCopy } from '../local/fixtures/dataset';
import { manureRequestBody } from '../local/fixtures/fertilization';
import { siexSimulatorControl } from '../local/siex-simulator/control';
import { LEGACY_JOB_TYPE, RECORD_KINDS } from '../shared/app/record-kinds';
import { FarmIndex } from '../shared/farms/farm-index';
import { fertilizationEntry } from '../shared/fertilization/kind-entry';
import { phytoEntry } from '../shared/phyto/kind-entry';
import { KindEntry } from '../shared/records/kind-entry';
import { JobStore } from '../shared/export/job-store';
import { elapsed, exportFloor, floorsFor, frontFloor, KindFloors } from './floors';
import { phytoRequest } from './fixtures';
import { BenchStack } from './stack';
import { resilientFetch } from '../clients/typescript/src/resilient-fetch';
import { systemClock } from '../clients/typescript/src/clock';

/**
 * Issue 37 item 3: Spain's spring peak at 1/100 on this machine, then at rising rates until p99 passes 1 s. ERPs are
 * simulated as docs/capacity.md's model has them: 20 clients of 50 farms each (copies of the demo's first farm, DGC
 * codes on every enclosure), each farm-day one treatment (a batch of five one time in ten), half a fertilization, and
 * the other kinds of the register as section 11 assumes (mixCycle), single and in batches; a tenth of its records
 * amended and a fiftieth deleted, and an export of what is pending. Beside every path, its storage floor
 * (bench/floors.ts) on floor-only farms in the same step. At the end every farm is exported until nothing waits, and
 * the run proves nothing was lost, kind by kind: every record accepted is listed once, every one not deleted is held by
 * the SIEX simulator once in its kind's section, under its own id, and nothing refused or deleted was stored or held.
 *
 * The national peak hour is 31,189 records (docs/capacity.md, section 4): 1/100 of it is 0.087 records a second.
 */
const CLIENTS = 20;
const FARMS_PER_CLIENT = 50;
const NATIONAL_PEAK_RECORDS_PER_SECOND = 31_189 / 3600;
/**
 * The farms the storage floors write on. One per client (20) took the writes of the gateway's 1,000 farms, and at 80
 * records a second concurrent floor registrations met on a farm's history rows (412), which counted as their paths'
 * errors; at 200 a floor farm takes five gateway farms' share, close enough to meet no more often than they do.
 */
const FLOOR_FARMS = 200;
/** Up to this rate every call has its floor beside it; above it one call of a path in rate / this (timedFloor). */
const FLOOR_RECORDS_PER_SECOND = 5;

/** What a kind's line of the mix needs: its entry, its short name, a lawful body on a farm and a lawful amendment. */
interface MixKind {
  entry: KindEntry;
  name: string;
  body: (farm: PeakFarm) => unknown;
  amendment: unknown;
  /** How many items its batches hold. */
  batch: number;
}

interface PeakFarm {
  rea: string;
  codigoRea: string;
  agrifarmId: string;
  headers: Record<string, string>;
  index: FarmIndex;
  /** Vine crop locations, each treated once in a run: the bench product keeps a 7-day interval per enclosure. */
  vine: number[];
  slot: number;
  /** The next location of each kind's rotation, by URN type. */
  slots: Map<string, number>;
  /** The farm's last export the gateway took (202): when it was asked for, and its job. */
  exported?: { at: number; job: number };
}

interface Accepted {
  farm: PeakFarm;
  kind: MixKind;
  urn: string;
  etag: string;
  deleted: boolean;
  /** A change of it was sent and its answer not yet had: changed no more until then. */
  unsure: boolean;
  /** When its registration was answered (performance.now()). */
  at: number;
}

/** What a call's tries were answered, one status each (0: no answer). */
type Tried = (status: number) => void;

/** `register <kind>`, `batch <kind>`, `amend`, `delete` or `export pending`. */
type Path = string;

interface PathStats {
  /** Each call's time as its ERP saw it: from the first try to the answer it kept, retries and their waits included. */
  times: number[];
  /** The storage floor's times of the same path, done on the floor farms during the same step. */
  floor: number[];
  errors: number;
  /** Answers the model expects under concurrency (409 RECORD_IN_EXPORT, NOTHING_TO_EXPORT), not errors. */
  conflicts: number;
  records: number;
  /** Tries answered 503 (the gateway turned them away, or its storage did) and retried after Retry-After. */
  shed: number;
  /** The floor's calls that failed (timed out past what the machine does, or met another floor's on a farm's rows). */
  floorFailed: number;
  /** The path's calls counted for the floor's sample. */
  floorTurn: number;
}

type Made = Pick<PeakFarm, 'rea' | 'codigoRea' | 'headers'>;

function peakDataset(base: Dataset, year: number): { dataset: Dataset; farms: Made[]; floorFarms: Made[] } {
  const template = base.farms[0]!;
  const farms: Made[] = [];
  const clients: Dataset['clients'] = [];
  const copies: Dataset['farms'] = [];
  for (let c = 0; c < CLIENTS; c++) {
    const sid = `peak-sid-${String(c).padStart(2, '0')}-${'0'.repeat(40)}`;
    const api = `peak-api-${String(c).padStart(2, '0')}-${'0'.repeat(40)}`;
    const reas: string[] = [];
    for (let f = 0; f < FARMS_PER_CLIENT; f++) {
      const n = c * FARMS_PER_CLIENT + f;
      const rea = `4697${String(n).padStart(7, '0')}`;
      const codigoRea = `ES4697${String(n).padStart(8, '0')}`;
      reas.push(rea);
      copies.push({ ...farmCopy(template, { rea, codigoRea, name: `Finca pico ${n}` }), year });
      farms.push({
        rea,
        codigoRea,
        headers: { 'Ocp-Apim-Sid-Key': sid, 'Ocp-Apim-Subscription-Key': api, 'Content-Type': 'application/json' },
      });
    }
    clients.push(
      client({
        id: `peak-${c}`,
        name: `ERP ${c}`,
        email: `erp${c}@example.org`,
        sidKey: sid,
        apiKey: api,
        farms: reas,
      }),
    );
  }
  // The floors' own farms, no client's: their records and history rows never meet the gateway's.
  const floorFarms: Made[] = [];
  for (let n = 0; n < FLOOR_FARMS; n++) {
    const rea = `4698${String(n).padStart(7, '0')}`;
    const codigoRea = `ES4698${String(n).padStart(8, '0')}`;
    copies.push({ ...farmCopy(template, { rea, codigoRea, name: `Finca suelo ${n}` }), year });
    floorFarms.push({ rea, codigoRea, headers: {} });
  }
  return { dataset: { clients, applicators: [], products: [], farms: copies }, farms, floorFarms };
}

/** The client package's retry defaults (clients/typescript/src/index.ts): how an ERP built on it rides out 429 and 5xx. */
const RETRY = { attempts: 5, baseDelayMs: 500, maxDelayMs: 30_000 };

interface Answer {
  status: number;
  json: unknown;
  etag: string;
}

/**
 * One call as an ERP on the client package makes it (`resilientFetch`): 429, 5xx and failed connections retried,
 * after Retry-After when the answer gives one, every try of a write under the same Idempotency-Key. `tried` sees every
 * try's status (0: no answer). Null when no try was answered.
 */
async function call(
  base: string,
  farm: PeakFarm,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  tried: (status: number) => void = () => undefined,
): Promise<Answer | null> {
  const send: typeof fetch = async (input, init) => {
    try {
      const res = await fetch(input, init);
      tried(res.status);
      return res;
    } catch (e) {
      tried(0);
      throw e;
    }
  };
  const request = new Request(`${base}${path}`, {
    method,
    headers: { ...farm.headers, ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  try {
    const res = await resilientFetch(send, RETRY, systemClock)(request);
    const text = await res.text();
    return {
      status: res.status,
      json: text ? (JSON.parse(text) as unknown) : undefined,
      etag: res.headers.get('etag') ?? '',
    };
  } catch {
    return null;
  }
}

/** An answer the ERP can act on, not a failure to retry (429, 5xx). */
const settles = (a: Answer) => a.status !== 429 && a.status < 500;

/**
 * A write whose answer its ERP never got, after every retry: the ERP sends it again, under the same key, until it
 * gets one (at the end of the run), and only then knows whether it was done.
 */
interface Unsettled {
  farm: PeakFarm;
  method: string;
  path: string;
  body: unknown;
  headers: Record<string, string>;
  answered: (a: Answer) => number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

interface PeakStep {
  recordsPerSecond: number;
  seconds: number;
  lines: {
    path: Path;
    n: number;
    perSecond: number;
    p50: number;
    p99: number;
    /** The storage floor's. */
    floorP50: number;
    floorP99: number;
    errors: number;
    conflicts: number;
    shed: number;
    floorFailed: number;
  }[];
  /** Writes without an answer after every retry, by the end of this step (since the run began). */
  unsettled: number;
}

export interface PeakResult {
  steps: PeakStep[];
  /** The highest step whose every path kept p99 under 1 s with no error. */
  sustained: number | null;
  proof: {
    accepted: number;
    deleted: number;
    listedOnce: number;
    heldOnce: number;
    missing: string[];
    extra: string[];
    byKind: { kind: string; accepted: number; listedOnce: number; heldOnce: number }[];
  };
  importSeconds: number;
  /** The ERPs' farms in each data account (one figure with one account). */
  farmsByAccount: number[];
  /** After the last step: the jobs the farms' final exports made, and the seconds until every one had settled. */
  drain: { jobs: number; seconds: number };
  /** Writes whose ERPs had no answer after every retry, sent again under their keys after the last step. */
  replayed: number;
}

/**
 * The run: `steps` rates in records a second (the first 1/100 of the national peak), each for `seconds`; SIEX answers
 * as the bench simulator is set (50 ms a call, 300 ms to process).
 */
export async function benchPeak(
  stack: BenchStack,
  // PEAK_SCALE shortens every step (0.1: a tenth of each), for trying the run; the figures are from the full one.
  scale = Number(process.env.PEAK_SCALE ?? 1),
  steps: { recordsPerSecond: number; seconds: number; warmUp?: true; wholeMix?: true }[] = [
    // Every path once or more before anything is measured, as a deployed instance has served them (always-ready
    // instances, docs/capacity.md section 8): otherwise the p99 of 1/100's few calls is a process's first call of a
    // path (its lazy imports), which the cold-start bench measures on its own. Its calls are in the proof.
    { recordsPerSecond: 5, seconds: 20, warmUp: true },
    // At least the 5 minutes, and until every call of the mix has been made once (wholeMix): 300 s at 1/100
    // are 26 records, a quarter of the mix's cycle, in which the run met two kinds of nine, and no deletion.
    { recordsPerSecond: NATIONAL_PEAK_RECORDS_PER_SECOND / 100, seconds: 300 * scale, wholeMix: true },
    { recordsPerSecond: 2, seconds: 60 * scale },
    { recordsPerSecond: 5, seconds: 60 * scale },
    { recordsPerSecond: 10, seconds: 60 * scale },
    { recordsPerSecond: 20, seconds: 60 * scale },
    { recordsPerSecond: 40, seconds: 60 * scale },
    { recordsPerSecond: 80, seconds: 60 * scale },
  ],
): Promise<PeakResult> {
  const year = DateTime.now().setZone(ZONE).year;
  const started = performance.now();
  const { dataset, farms: made, floorFarms: floorMade } = peakDataset(stack.dataset, year);
  await importDataset(dataset, stack.tables);
  const store = new FarmStore(stack.tables, 0);
  const open = async (f: Made): Promise<PeakFarm> => {
    const info = (await store.lookupInfo(f.rea, year))!;
    const index = (await store.index(info.farmId))!;
    const vine = index.doc.idcps.filter((e) => index.cropOf(e).typecropId === '102').map((e) => e.idcp);
    return { ...f, agrifarmId: `urn:ngsi-ld:AgriFarm:${info.farmId}`, index, vine, slot: 0, slots: new Map() };
  };
  const farms: PeakFarm[] = [];
  for (const f of made) farms.push(await open(f));
  const floorFarms: PeakFarm[] = [];
  for (const f of floorMade) floorFarms.push(await open(f));
  const importSeconds = (performance.now() - started) / 1000;
  const farmsByAccount = stack.tables.accounts.map(() => 0);
  for (const f of farms) farmsByAccount[await stack.tables.farmAccounts.of(f.rea)]!++;
  // SIEX as the export scenario has it: 50 ms a call, its own processing time (bench/export.ts).
  stack.siex.state.reset();
  stack.siex.state.control({ latencyMs: 50 });
  const base = stack.runnerUrl;
  const accepted: Accepted[] = [];
  const deletions: { farm: PeakFarm; job: number }[] = [];
  const kinds = mixKinds();
  const floors = await floorsFor(stack.tables, { keyed: true });
  const front = frontFloor(stack.tables);
  /** The gateway farm a call went to and its ERP's SID key: whose copies in the gateway the front floor follows. */
  const erpOf = (farm: PeakFarm) => ({ rea: farm.rea, sid: farm.headers['Ocp-Apim-Sid-Key']! });
  const exportFloorOn = exportFloor(
    stack.tables,
    { AzureWebJobsStorage: stack.runnerEnv.AzureWebJobsStorage! },
    floorFarms.map((f) => f.index),
  );
  const floorOf = new Map<MixKind, KindFloors>(kinds.map((k) => [k, floors(k.entry)]));
  const jobs = new JobStore(stack.tables, LEGACY_JOB_TYPE);
  /** The floors' records, for the amend and delete floors; ids far above any counter's. */
  const floorRecords: { farm: PeakFarm; kind: MixKind; id: number }[] = [];
  let floorId = 9_500_000_000;

  /** A 201's one-record body, kept with its ETag for the amendments. */
  const keep = (farm: PeakFarm, kind: MixKind, json: unknown, etag: string) =>
    accepted.push({
      farm,
      kind,
      urn: (json as { id: string }[])[0]!.id,
      etag,
      deleted: false,
      unsure: false,
      at: performance.now(),
    });
  const recordPath = (a: Accepted) =>
    `/${a.kind.entry.collection}/${encodeURIComponent(a.urn)}?agrifarmId=${a.farm.agrifarmId}`;

  /** Writes whose answers their ERPs never got, sent again at the end of the run (Unsettled). */
  const unsettled: Unsettled[] = [];
  /**
   * A write under an Idempotency-Key of its own, retried as the client package does: its answer acted on
   * (`answered`, which gives the status the step counts), or, when every try failed, kept to be sent again.
   */
  const write = async (u: Omit<Unsettled, 'headers'>, headers: Record<string, string>, tried: Tried) => {
    const keyed = { ...headers, 'Idempotency-Key': randomUUID() };
    const a = await call(base, u.farm, u.method, u.path, u.body, keyed, tried);
    if (a && settles(a)) return u.answered(a);
    unsettled.push({ ...u, headers: keyed });
    return a?.status ?? 0;
  };
  /**
   * One registration of a kind, single or a batch, keeping what was accepted: its status, or for a batch that refused
   * an item that item's (a refused item is an error of the path: the mix is lawful).
   */
  const register = (kind: MixKind, farm: PeakFarm, batch: boolean, tried: Tried) => {
    const path = `/${kind.entry.collection}/${batch ? 'batch' : ''}?agrifarmId=${farm.agrifarmId}`;
    const body = batch ? Array.from({ length: kind.batch }, () => kind.body(farm)) : kind.body(farm);
    const answered = (r: Answer) => {
      if (batch && r.status === 200) {
        const items = r.json as { status: number; etag: string; body: unknown }[];
        for (const item of items) if (item.status === 201) keep(farm, kind, item.body, item.etag);
        return items.find((item) => item.status !== 201)?.status ?? r.status;
      }
      if (r.status === 201) keep(farm, kind, r.json, r.etag);
      return r.status;
    };
    return write({ farm, method: 'POST', path, body, answered }, {}, tried);
  };
  /** A registration's floor; a batch's: its key claimed, then its items one after another, as the batch stores them. */
  const registerFloor = async (kind: MixKind, farm: PeakFarm, items: number, batch: boolean) => {
    let ms = batch ? await floorOf.get(kind)!.claimBatch(farm.index) : 0;
    for (let i = 0; i < items; i++) {
      const id = floorId++;
      ms += await floorOf.get(kind)!.register(farm.index, id, kind.body(farm));
      floorRecords.push({ farm, kind, id });
    }
    return ms;
  };
  /** A change of a record: until its ERP has the answer, the record is changed no more (`unsure`). */
  const change = async (
    a: Accepted,
    method: string,
    body: unknown,
    headers: Record<string, string>,
    tried: Tried,
    answered: (r: Answer) => number,
  ) => {
    a.unsure = true;
    const answer = (r: Answer) => {
      a.unsure = false;
      return answered(r);
    };
    return write({ farm: a.farm, method, path: recordPath(a), body, answered: answer }, headers, tried);
  };
  const amend = (a: Accepted, tried: Tried) =>
    change(
      a,
      'PATCH',
      a.kind.amendment,
      { 'Content-Type': 'application/merge-patch+json', 'If-Match': a.etag },
      tried,
      (r) => {
        if (r.status === 200) a.etag = r.etag;
        return r.status;
      },
    );
  const remove = (a: Accepted, tried: Tried) =>
    change(a, 'DELETE', undefined, {}, tried, (r) => {
      if (r.status === 204 || r.status === 202) a.deleted = true;
      if (r.status === 202) deletions.push({ farm: a.farm, job: (r.json as { id: number }).id });
      return r.status === 202 ? 204 : r.status;
    });
  /** What a farm has pending, exported; not kept to send again: the drain asks until nothing is left. */
  const exportPending = async (farm: PeakFarm, tried?: Tried) => {
    const r = await call(
      base,
      farm,
      'POST',
      `/v1/entities/siex/exportCUE?agrifarmId=${farm.agrifarmId}&pending=1`,
      [],
      { 'Idempotency-Key': randomUUID() },
      tried,
    );
    return {
      status: r?.status ?? 0,
      job: (r?.json as { id?: number } | undefined)?.id,
      code: JSON.stringify(r?.json ?? ''),
    };
  };

  const result: PeakResult = {
    steps: [],
    sustained: null,
    proof: { accepted: 0, deleted: 0, listedOnce: 0, heldOnce: 0, missing: [], extra: [], byKind: [] },
    importSeconds,
    farmsByAccount,
    drain: { jobs: 0, seconds: 0 },
    replayed: 0,
  };
  const cycle = mixCycle(kinds);
  const cycleRecords = cycle.reduce((n, c) => n + (c.batch ? c.kind.batch : 1), 0);
  let next = 0;
  let floorNext = 0;
  for (const step of steps) {
    const stats = new Map<Path, PathStats>();
    const stat = (p: Path) => {
      if (!stats.has(p))
        stats.set(p, {
          times: [],
          floor: [],
          errors: 0,
          conflicts: 0,
          records: 0,
          shed: 0,
          floorFailed: 0,
          floorTurn: 0,
        });
      return stats.get(p)!;
    };
    const timed = async (
      p: Path,
      ok: number[],
      conflict: number[],
      run: (tried: Tried) => Promise<number>,
      records = 0,
    ) => {
      const t = performance.now();
      try {
        const status = await run((status) => {
          if (status === 503) stat(p).shed++;
        });
        const s = stat(p);
        s.times.push(performance.now() - t);
        if (ok.includes(status)) s.records += records;
        else if (conflict.includes(status)) s.conflicts++;
        else s.errors++;
      } catch {
        stat(p).errors++;
      }
    };
    /**
     * A floor's storage milliseconds, for one call of the path in `floorEvery`: a sample of the storage's times under
     * the step's load is what the column needs, and a floor beside every call doubled the storage work, so that the
     * machine carried half the rate it does for the gateway alone. A floor that fails is counted apart, not as the
     * gateway's error: the floors have no admission and no conflict retries, so past what the machine does their
     * storage calls time out, and two of them on a floor farm meet on its rows (409, 412) where the core would try
     * again; its first messages are shown.
     */
    const floorEvery = Math.max(1, Math.round(step.recordsPerSecond / FLOOR_RECORDS_PER_SECOND));
    const timedFloor = async (p: Path, run: () => Promise<number>) => {
      if (stat(p).floorTurn++ % floorEvery !== 0) return;
      try {
        stat(p).floor.push(await run());
      } catch (e) {
        if (stat(p).floorFailed++ < 3) console.error(`floor of ${p}: ${String(e).split('\n')[0]}`);
      }
    };
    const inFlight = new Set<Promise<void>>();
    const track = (p: Promise<void>) => {
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    };
    const stepStart = performance.now();
    const intervalMs = 1000 / step.recordsPerSecond;
    // Calls go out at their records' pace, so a cycle's records take exactly its every call, from wherever it starts.
    const stepSeconds = step.wholeMix
      ? Math.max(step.seconds, (cycleRecords * scale) / step.recordsPerSecond)
      : step.seconds;
    let records = 0;
    while (performance.now() - stepStart < stepSeconds * 1000) {
      const farm = farms[next++ % farms.length]!;
      const floorFarm = floorFarms[floorNext++ % floorFarms.length]!;
      // A farm-day's records in the mix (mixCycle): each registration beside its floor on a floor farm.
      const { kind, batch } = cycle[next % cycle.length]!;
      const items = batch ? kind.batch : 1;
      const path = `${batch ? 'batch' : 'register'} ${kind.name}`;
      records += items;
      // Whether this call's records took the step past a multiple of `every`: a batch of five steps over some.
      const passed = (every: number) => Math.floor(records / every) > Math.floor((records - items) / every);
      track(timed(path, [201, 200], [], (tried) => register(kind, farm, batch, tried), items));
      track(
        timedFloor(
          path,
          async () =>
            (await front(erpOf(farm), floorFarm.index)) + (await registerFloor(kind, floorFarm, items, batch)),
        ),
      );
      // A tenth amended, a fiftieth deleted, and the farm exported once a farm-day (every ~1.5 records).
      if (accepted.length > 0 && passed(10)) {
        const a = accepted[(next * 7919) % accepted.length]!;
        if (!a.deleted && !a.unsure) {
          track(timed('amend', [200], [409, 412], (tried) => amend(a, tried)));
          // The floor amends a floor record of the same kind, taken in turn as the gateway's are.
          const mine = floorRecords.filter((r) => r.kind === a.kind);
          const f = mine[(next * 7919) % mine.length];
          if (f)
            track(
              timedFloor('amend', async () => {
                let ms = await front(erpOf(a.farm), f.farm.index);
                // A record an export took is claimed by its job, whose status the gateway reads before changing it
                // (shared/export/job-claims.ts): the floor reads that job's status row too.
                const job = a.farm.exported;
                if (job && job.at > a.at) ms += await elapsed(() => jobs.meta(job.job));
                return ms + (await floorOf.get(f.kind)!.amend(f.farm.index, f.id, f.kind.amendment));
              }),
            );
        }
      }
      if (accepted.length > 0 && passed(50)) {
        const a = accepted[(next * 104729) % accepted.length]!;
        if (!a.deleted && !a.unsure) {
          track(timed('delete', [204], [409, 412], (tried) => remove(a, tried)));
          // The floor deletes a floor record of the same kind, no longer offered to the amend floor.
          const at = floorRecords.findIndex((r) => r.kind === a.kind);
          const [f] = at >= 0 ? floorRecords.splice(at, 1) : [];
          if (f)
            track(
              timedFloor('delete', async () => {
                const ms = await front(erpOf(a.farm), f.farm.index);
                return ms + (await floorOf.get(f.kind)!.remove(f.farm.index, f.id));
              }),
            );
        }
      }
      if (next % 2 === 0) {
        const farmToExport = farms[(next - 2) % farms.length]!;
        track(
          timed('export pending', [202], [409], async (tried) => {
            const at = performance.now();
            const { status, job } = await exportPending(farmToExport, tried);
            if (status === 202 && job !== undefined) farmToExport.exported = { at, job };
            return status;
          }),
        );
        // The floor exports the floor farm registered on two calls ago, as the gateway's export is of its farm's.
        const floorToExport = floorFarms[(floorNext - 2) % floorFarms.length]!;
        track(
          timedFloor('export pending', async () => {
            const ms = await front(erpOf(farmToExport), floorToExport.index);
            return ms + (await exportFloorOn(floorToExport.agrifarmId));
          }),
        );
      }
      const due = stepStart + records * intervalMs;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    await Promise.all([...inFlight]);
    const seconds = (performance.now() - stepStart) / 1000;
    if (step.warmUp) continue;
    result.steps.push({
      recordsPerSecond: step.recordsPerSecond,
      seconds,
      lines: [...stats].map(([path, s]) => {
        const sorted = [...s.times].sort((a, b) => a - b);
        const floor = [...s.floor].sort((a, b) => a - b);
        return {
          path,
          n: s.times.length,
          perSecond: (s.records || s.times.length) / seconds,
          p50: percentile(sorted, 50),
          p99: percentile(sorted, 99),
          floorP50: percentile(floor, 50),
          floorP99: percentile(floor, 99),
          errors: s.errors,
          conflicts: s.conflicts,
          shed: s.shed,
          floorFailed: s.floorFailed,
        };
      }),
      unsettled: unsettled.length,
    });
  }
  const fine = result.steps.filter((s) => s.lines.every((l) => l.p99 < 1000 && l.errors === 0));
  result.sustained = fine.length ? Math.max(...fine.map((s) => s.recordsPerSecond)) : null;

  // What an ERP does with a write it never had an answer to: it sends it again, under the same key, until it has one;
  // the gateway answers what it did the first time, or does it now. Only then does the proof start.
  result.replayed = unsettled.length;
  for (const u of unsettled)
    for (;;) {
      const a = await call(base, u.farm, u.method, u.path, u.body, u.headers);
      if (a && settles(a)) {
        u.answered(a);
        break;
      }
    }

  // The proof: every farm exported until nothing waits (its jobs started together, as a night's backlog would be),
  // each job settled, then listed and compared with SIEX's.
  const drainStart = performance.now();
  // Twenty ERPs at once, each draining its own farms one after another: a thousand pollers at once would measure the
  // bench's own polling, not the drain.
  const byClient = Array.from({ length: CLIENTS }, (_, c) =>
    farms.slice(c * FARMS_PER_CLIENT, (c + 1) * FARMS_PER_CLIENT),
  );
  await Promise.all(
    byClient.map(async (own) => {
      for (const farm of own)
        for (;;) {
          const r = await exportPending(farm);
          if (r.status === 409 && r.code.includes('NOTHING_TO_EXPORT')) break;
          if (r.status === 202) {
            result.drain.jobs++;
            await settled(base, farm, r.job!);
          } else await new Promise((res) => setTimeout(res, 200));
        }
    }),
  );
  result.drain.seconds = (performance.now() - drainStart) / 1000;
  for (const d of deletions) await settled(base, d.farm, d.job);
  const siex = siexSimulatorControl(stack.siex.url);
  const live = new Set(accepted.filter((a) => !a.deleted).map((a) => a.urn));
  const proof = result.proof;
  proof.accepted = accepted.length;
  proof.deleted = accepted.length - live.size;
  const listed = new Map<string, number>();
  const byKind = new Map(kinds.map((k) => [k, { kind: k.name, accepted: 0, listedOnce: 0, heldOnce: 0 }]));
  for (const a of accepted) byKind.get(a.kind)!.accepted++;
  // The farms read as the drain asked for them: twenty ERPs at once, each its own farms one after another.
  await Promise.all(
    byClient.map(async (own) => {
      for (const farm of own)
        for (const kind of kinds) {
          for (const urn of await listAll(base, farm, kind.entry.collection))
            listed.set(urn, (listed.get(urn) ?? 0) + 1);
          const held = new Map<number, number>();
          for (const e of await siex.notebook(kind.entry.load.kind().cue.section, farm.codigoRea))
            held.set(e.idAjena, (held.get(e.idAjena) ?? 0) + 1);
          // One location a record (or none), so one block, which keeps the record's number as its IdAjena.
          const ours = accepted.filter((x) => x.farm === farm && x.kind === kind && !x.deleted);
          for (const a of ours) {
            const n = held.get(Number(a.urn.split(':').pop())) ?? 0;
            if (n === 1) {
              proof.heldOnce++;
              byKind.get(kind)!.heldOnce++;
            } else proof.missing.push(`${a.urn} held ${n}x by SIEX`);
          }
          // Anything SIEX holds that no live record of the farm is: sent though refused, or not deleted there.
          const live = new Set(ours.map((a) => Number(a.urn.split(':').pop())));
          for (const idAjena of held.keys())
            if (!live.has(idAjena)) proof.extra.push(`${kind.name} ${idAjena} held by SIEX for ${farm.rea}, not live`);
        }
    }),
  );
  for (const a of accepted.filter((x) => !x.deleted)) {
    const n = listed.get(a.urn) ?? 0;
    if (n === 1) {
      proof.listedOnce++;
      byKind.get(a.kind)!.listedOnce++;
    } else proof.missing.push(`${a.urn} listed ${n}x`);
  }
  // Anything listed that was not accepted, or was deleted: stored though refused, or not removed.
  for (const urn of listed.keys()) if (!live.has(urn)) proof.extra.push(`${urn} listed, not accepted or deleted`);
  proof.byKind = [...byKind.values()];
  return result;
}

async function settled(base: string, farm: PeakFarm, jobId: number): Promise<void> {
  for (;;) {
    const r = await call(base, farm, 'GET', `/v1/entities/jobstatus?jobId=${jobId}`);
    const status = (r?.json as { status?: { name?: string } } | undefined)?.status?.name ?? '';
    if (status.startsWith('Finalizado') || status === 'Fallido') return;
    await new Promise((res) => setTimeout(res, 1000));
  }
}

async function listAll(base: string, farm: PeakFarm, collection: string): Promise<string[]> {
  const urns: string[] = [];
  for (let page = 1; ; page++) {
    const r = await call(base, farm, 'GET', `/${collection}/?agrifarmId=${farm.agrifarmId}&page=${page}&page_size=100`);
    if (r?.status !== 200) throw new Error(`list of ${collection}: ${r?.status} ${JSON.stringify(r?.json)}`);
    const items = r.json as { id: string }[];
    urns.push(...items.map((i) => i.id));
    if (items.length < 100) return urns;
  }
}

export function printPeak(r: PeakResult): void {
  console.log(
    `\npeak (issue 37): ${CLIENTS} clients x ${FARMS_PER_CLIENT} farms, imported in ${r.importSeconds.toFixed(1)} s; ` +
      `1/100 of the national peak hour is ${(NATIONAL_PEAK_RECORDS_PER_SECOND / 100).toFixed(3)} records/s`,
  );
  console.log(`  ${r.farmsByAccount.length} data account(s); the ERPs' farms in each: ${r.farmsByAccount.join(' / ')}`);
  const ms = (v: number) => (Number.isNaN(v) ? '-' : v.toFixed(1)).padStart(9);
  for (const s of r.steps) {
    console.log(`\n  at ${s.recordsPerSecond.toFixed(3)} records/s for ${s.seconds.toFixed(0)} s`);
    console.log(
      `  ${'path'.padEnd(34)}     n   per s    p50 ms    p99 ms  flr p50  flr p99  p99 ratio  errors  409/412     shed flr fail`,
    );
    for (const l of s.lines)
      console.log(
        `  ${l.path.padEnd(34)} ${String(l.n).padStart(5)} ${l.perSecond.toFixed(2).padStart(7)}${ms(l.p50)}${ms(l.p99)}` +
          `${ms(l.floorP50)}${ms(l.floorP99)} ${(Number.isNaN(l.floorP99) ? '-' : (l.p99 / l.floorP99).toFixed(2)).padStart(10)}` +
          ` ${String(l.errors).padStart(7)} ${String(l.conflicts).padStart(8)} ${String(l.shed).padStart(8)} ${String(l.floorFailed).padStart(8)}`,
      );
    if (s.unsettled) console.log(`  writes without an answer after every retry, so far: ${s.unsettled}`);
  }
  console.log(
    '  floor = the same storage work straight against Azurite through the same proxy (the directory, client, key, farm and ' +
      "catalogue version as the gateway reads and writes them, then the path's own), on floor-only farms, during the same step " +
      '(docs/capacity.md, section 11)',
  );
  console.log(`\n  highest rate with every p99 under 1 s and no error: ${r.sustained ?? 'none'} records/s`);
  console.log(
    '  a call is timed as its ERP sees it, retries included (the client package: 5 tries, after Retry-After); shed = ' +
      'tries answered 503 and retried',
  );
  console.log(`  writes without an answer after every retry, sent again under their keys at the end: ${r.replayed}`);
  console.log(
    `  backlog: ${r.drain.jobs} export jobs of what was left pending, all settled ${r.drain.seconds.toFixed(1)} s after they were asked for`,
  );
  const p = r.proof;
  console.log(
    `  nothing lost: ${p.accepted} accepted, ${p.deleted} deleted; ${p.listedOnce} listed once, ${p.heldOnce} held once by SIEX; ` +
      `${p.missing.length} missing, ${p.extra.length} extra`,
  );
  for (const k of p.byKind)
    console.log(
      `    ${k.kind.padEnd(24)} ${k.accepted} accepted, ${k.listedOnce} listed once, ${k.heldOnce} held once`,
    );
  for (const m of [...p.missing, ...p.extra].slice(0, 10)) console.log(`    ${m}`);
}

/** Now, an hour ago in Madrid: inside every kind's recording window and today's campaign. */
const recordedAt = () => DateTime.now().setZone(ZONE).minus({ hours: 1 });

const DAY = /^\d{2}-\d{2}-\d{4}$/;
const DAY_TIME = /^\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2}$/;

/**
 * A kind's worked registration (its OpenAPI example, on the demo's first farm, which the peak farms copy), dated an
 * hour ago, on the farm's next location of the example's crop: the example's product, catalogue codes and facility
 * are lawful there, and its rules see one record a location in a run.
 */
function exampleBody(entry: KindEntry, farm: PeakFarm): unknown {
  const example = entry.load.http().examples.register.request as Record<string, unknown>;
  const at = recordedAt();
  const body: Record<string, unknown> = { ...example };
  for (const [field, value] of Object.entries(example)) {
    if (typeof value === 'string' && DAY.test(value)) body[field] = at.toFormat('dd-MM-yyyy');
    if (typeof value === 'string' && DAY_TIME.test(value)) body[field] = at.toFormat('dd-MM-yyyy HH:mm:ss');
  }
  const idcp = example.idcp as string[] | undefined;
  if (idcp) {
    // The example names the demo farm's n-th enclosure as it was imported (idcp n): the copy's n-th is the same one.
    const crop = farm.index.cropOf(farm.index.doc.idcps[Number(idcp[0]) - 1]!).typecropId;
    const places = farm.index.doc.idcps.filter((e) => farm.index.cropOf(e).typecropId === crop).map((e) => e.idcp);
    const slot = farm.slots.get(entry.urnType) ?? 0;
    farm.slots.set(entry.urnType, slot + 1);
    body.idcp = [String(places[slot % places.length])];
  }
  return body;
}

/** `FertilizationPlan` as `fertilization plan`: what a path's line calls the kind. */
const nameOf = (entry: KindEntry) => entry.stem.replace(/(?<=.)([A-Z])/g, ' $1').toLowerCase();

/**
 * Every kind of shared/app/record-kinds.ts. Treatments and fertilizations as the model had them (docs/capacity.md,
 * section 4): the bench product on the farm's next vine location (batches of five), manure on a vine location (batches
 * of two), each amended by its dose. Every other kind from its worked example (exampleBody), amended by its worked
 * amendment, in batches of two.
 */
function mixKinds(): MixKind[] {
  return RECORD_KINDS.map((entry): MixKind => {
    if (entry === phytoEntry)
      return {
        entry,
        name: 'treatment',
        body: (farm) => phytoRequest([farm.vine[farm.slot++ % farm.vine.length]!], recordedAt()),
        amendment: { dose: 3 },
        batch: 5,
      };
    if (entry === fertilizationEntry)
      return {
        entry,
        name: 'fertilization',
        body: (farm) =>
          manureRequestBody({
            dateStart: recordedAt().toFormat('dd-MM-yyyy'),
            idcp: String(farm.vine[farm.slot % farm.vine.length]),
            tonnes: 2,
          }),
        amendment: { dose: 3 },
        batch: 2,
      };
    return {
      entry,
      name: nameOf(entry),
      body: (farm) => exampleBody(entry, farm),
      amendment: entry.load.http().examples.amend.request,
      batch: 2,
    };
  });
}

/**
 * The calls of the mix, taken in turn (an assumption, docs/capacity.md section 11): of every 37, as the model's
 * farm-days have them, 18 single treatments and 2 batches of five (two treatments a fertilization), 9 single
 * fertilizations and one batch of two; and one registration of each other kind, single in one turn of 37 and a batch
 * of two in the next: 3 of every 99 records each.
 */
function mixCycle(kinds: MixKind[]): { kind: MixKind; batch: boolean }[] {
  const treatment = kinds.find((k) => k.entry === phytoEntry)!;
  const fertilization = kinds.find((k) => k.entry === fertilizationEntry)!;
  const others = kinds.filter((k) => k !== treatment && k !== fertilization);
  const turn = (batchOthers: boolean) => [
    ...Array.from({ length: 18 }, () => ({ kind: treatment, batch: false })),
    ...Array.from({ length: 2 }, () => ({ kind: treatment, batch: true })),
    ...Array.from({ length: 9 }, () => ({ kind: fertilization, batch: false })),
    { kind: fertilization, batch: true },
    ...others.map((kind) => ({ kind, batch: batchOthers })),
  ];
  return [...turn(false), ...turn(true)];
}
