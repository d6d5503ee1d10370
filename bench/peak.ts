import { performance } from 'node:perf_hooks';
import { DateTime } from 'luxon';
import { Dataset } from '../shared/backoffice/dataset-schema';
import { importDataset } from '../shared/backoffice/import';
import { ZONE } from '../shared/domain/dates';
import { FarmStore } from '../shared/farms/farm-store';
import { client, farmCopy } from '../local/fixtures/dataset';
import { manureRequestBody } from '../local/fixtures/fertilization';
import { siexSimulatorControl } from '../local/siex-simulator/control';
import { phytoRequest } from './fixtures';
import { BenchStack } from './stack';

/**
 * Issue 37 item 3: Spain's spring peak at 1/100 on this machine, then at rising rates until p99 passes 1 s. ERPs are
 * simulated as docs/capacity.md's model has them: 20 clients of 50 farms each (copies of the demo's first farm, DGC
 * codes on every enclosure), each farm-day one treatment (a batch of five one time in ten), half a fertilization, a
 * tenth of its records amended and a fiftieth deleted, and an export of what is pending. At the end every farm is
 * exported until nothing waits, and the run proves nothing was lost: every record accepted is listed once, every one
 * not deleted is held by the SIEX simulator once, under its own id, and nothing refused was stored.
 *
 * The national peak hour is 31,189 records (docs/capacity.md, section 4): 1/100 of it is 0.087 records a second.
 */
const CLIENTS = 20;
const FARMS_PER_CLIENT = 50;
const NATIONAL_PEAK_RECORDS_PER_SECOND = 31_189 / 3600;

interface PeakFarm {
  rea: string;
  codigoRea: string;
  agrifarmId: string;
  headers: Record<string, string>;
  /** Vine crop locations, each treated once in a run: the bench product keeps a 7-day interval per enclosure. */
  vine: number[];
  slot: number;
}

interface Accepted {
  farm: PeakFarm;
  kind: 'treatment' | 'fertilization';
  urn: string;
  etag: string;
  deleted: boolean;
}

type Path = 'register' | 'batch of 5' | 'fertilization' | 'amend' | 'delete' | 'export pending';

interface PathStats {
  times: number[];
  errors: number;
  /** Answers the model expects under concurrency (409 RECORD_IN_EXPORT, NOTHING_TO_EXPORT), not errors. */
  conflicts: number;
  records: number;
}

function peakDataset(
  base: Dataset,
  year: number,
): { dataset: Dataset; farms: Omit<PeakFarm, 'agrifarmId' | 'vine'>[] } {
  const template = base.farms[0]!;
  const farms: Omit<PeakFarm, 'agrifarmId' | 'vine'>[] = [];
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
        slot: 0,
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
  return { dataset: { clients, applicators: [], products: [], farms: copies }, farms };
}

async function call(
  base: string,
  farm: PeakFarm,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: unknown; etag: string }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...farm.headers, ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return {
    status: res.status,
    json: text ? (JSON.parse(text) as unknown) : undefined,
    etag: res.headers.get('etag') ?? '',
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

interface PeakStep {
  recordsPerSecond: number;
  seconds: number;
  lines: { path: Path; n: number; perSecond: number; p50: number; p99: number; errors: number; conflicts: number }[];
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
  };
  importSeconds: number;
  /** After the last step: the jobs the farms' final exports made, and the seconds until every one had settled. */
  drain: { jobs: number; seconds: number };
}

/**
 * The run: `steps` rates in records a second (the first 1/100 of the national peak), each for `seconds`; SIEX answers
 * as the bench simulator is set (50 ms a call, 300 ms to process).
 */
export async function benchPeak(
  stack: BenchStack,
  // PEAK_SCALE shortens every step (0.1: a tenth of each), for trying the run; the figures are from the full one.
  scale = Number(process.env.PEAK_SCALE ?? 1),
  steps: { recordsPerSecond: number; seconds: number }[] = [
    { recordsPerSecond: NATIONAL_PEAK_RECORDS_PER_SECOND / 100, seconds: 300 * scale },
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
  const { dataset, farms: made } = peakDataset(stack.dataset, year);
  await importDataset(dataset, stack.tables);
  const store = new FarmStore(stack.tables, 0);
  const farms: PeakFarm[] = [];
  for (const f of made) {
    const info = (await store.lookupInfo(f.rea, year))!;
    const index = (await store.index(info.farmId))!;
    const vine = index.doc.idcps.filter((e) => index.cropOf(e).typecropId === '102').map((e) => e.idcp);
    farms.push({ ...f, agrifarmId: `urn:ngsi-ld:AgriFarm:${info.farmId}`, vine });
  }
  const importSeconds = (performance.now() - started) / 1000;
  // SIEX as the export scenario has it: 50 ms a call, its own processing time (bench/export.ts).
  stack.siex.state.reset();
  stack.siex.state.control({ latencyMs: 50 });
  const base = stack.runnerUrl;
  const accepted: Accepted[] = [];
  const deletions: { farm: PeakFarm; job: number }[] = [];

  /** A treatment on the farm's next vine location (the farms are taken in turn, so a run treats each a few times). */
  const treatmentBody = (farm: PeakFarm) =>
    phytoRequest([farm.vine[farm.slot++ % farm.vine.length]!], DateTime.now().setZone(ZONE));
  const entities = (kind: Accepted['kind']) => (kind === 'treatment' ? 'agriphytosanitarys' : 'agrifertilizes');
  /** A 201's one-record body, kept with its ETag for the amendments. */
  const keep = (farm: PeakFarm, kind: Accepted['kind'], json: unknown, etag: string) =>
    accepted.push({ farm, kind, urn: (json as { id: string }[])[0]!.id, etag, deleted: false });
  const recordPath = (a: Accepted) =>
    `/v1/entities/${entities(a.kind)}/${encodeURIComponent(a.urn)}?agrifarmId=${a.farm.agrifarmId}`;

  /** The registrations, each with the records one call of it registers; the loop below sets their mix. */
  const ops: { path: Path; records: number; run: (farm: PeakFarm) => Promise<number> }[] = [
    {
      path: 'register',
      records: 1,
      run: async (farm) => {
        const r = await call(
          base,
          farm,
          'POST',
          `/v1/entities/agriphytosanitarys/?agrifarmId=${farm.agrifarmId}`,
          treatmentBody(farm),
        );
        if (r.status === 201) keep(farm, 'treatment', r.json, r.etag);
        return r.status;
      },
    },
    {
      path: 'batch of 5',
      records: 5,
      run: async (farm) => {
        const items = Array.from({ length: 5 }, () => treatmentBody(farm));
        const r = await call(
          base,
          farm,
          'POST',
          `/v1/entities/agriphytosanitarys/batch?agrifarmId=${farm.agrifarmId}`,
          items,
        );
        if (r.status === 200) {
          for (const item of r.json as { status: number; etag: string; body: unknown }[])
            if (item.status === 201) keep(farm, 'treatment', item.body, item.etag);
        }
        return r.status;
      },
    },
    {
      path: 'fertilization',
      records: 1,
      run: async (farm) => {
        const body = manureRequestBody({
          dateStart: DateTime.now().setZone(ZONE).toFormat('dd-MM-yyyy'),
          idcp: String(farm.vine[farm.slot % farm.vine.length]),
          tonnes: 2,
        });
        const r = await call(base, farm, 'POST', `/v1/entities/agrifertilizes/?agrifarmId=${farm.agrifarmId}`, body);
        if (r.status === 201) keep(farm, 'fertilization', r.json, r.etag);
        return r.status;
      },
    },
  ];
  const amend = async (a: Accepted) => {
    const r = await call(
      base,
      a.farm,
      'PATCH',
      recordPath(a),
      { dose: 3 },
      { 'Content-Type': 'application/merge-patch+json', 'If-Match': a.etag },
    );
    if (r.status === 200) a.etag = r.etag;
    return r.status;
  };
  const remove = async (a: Accepted) => {
    const r = await call(base, a.farm, 'DELETE', recordPath(a));
    if (r.status === 204 || r.status === 202) a.deleted = true;
    if (r.status === 202) deletions.push({ farm: a.farm, job: (r.json as { id: number }).id });
    return r.status === 202 ? 204 : r.status;
  };
  const exportPending = async (farm: PeakFarm) => {
    const r = await call(base, farm, 'POST', `/v1/entities/siex/exportCUE?agrifarmId=${farm.agrifarmId}&pending=1`, []);
    return { status: r.status, job: (r.json as { id?: number } | undefined)?.id, code: JSON.stringify(r.json ?? '') };
  };

  const result: PeakResult = {
    steps: [],
    sustained: null,
    proof: { accepted: 0, deleted: 0, listedOnce: 0, heldOnce: 0, missing: [], extra: [] },
    importSeconds,
    drain: { jobs: 0, seconds: 0 },
  };
  let next = 0;
  for (const step of steps) {
    const stats = new Map<Path, PathStats>();
    const stat = (p: Path) => {
      if (!stats.has(p)) stats.set(p, { times: [], errors: 0, conflicts: 0, records: 0 });
      return stats.get(p)!;
    };
    const timed = async (p: Path, ok: number[], conflict: number[], run: () => Promise<number>, records = 0) => {
      const t = performance.now();
      try {
        const status = await run();
        const s = stat(p);
        s.times.push(performance.now() - t);
        if (ok.includes(status)) s.records += records;
        else if (conflict.includes(status)) s.conflicts++;
        else s.errors++;
      } catch {
        stat(p).errors++;
      }
    };
    const inFlight = new Set<Promise<void>>();
    const track = (p: Promise<void>) => {
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    };
    const stepStart = performance.now();
    const intervalMs = 1000 / step.recordsPerSecond;
    let records = 0;
    while (performance.now() - stepStart < step.seconds * 1000) {
      const farm = farms[next++ % farms.length]!;
      // A farm-day's records in the model's mix: two treatments (a batch one time in ten) per fertilization.
      const roll = next % 30;
      const op = roll < 18 ? ops[0]! : roll < 20 ? ops[1]! : ops[2]!;
      records += op.records;
      track(timed(op.path, [201, 200], [], () => op.run(farm), op.records));
      // A tenth amended, a fiftieth deleted, and the farm exported once a farm-day (every ~1.5 records).
      if (accepted.length > 0 && records % 10 === 0) {
        const a = accepted[(next * 7919) % accepted.length]!;
        if (!a.deleted) track(timed('amend', [200], [409, 412], () => amend(a)));
      }
      if (accepted.length > 0 && records % 50 === 0) {
        const a = accepted[(next * 104729) % accepted.length]!;
        if (!a.deleted) track(timed('delete', [204], [409, 412], () => remove(a)));
      }
      if (next % 2 === 0) {
        const farmToExport = farms[(next - 2) % farms.length]!;
        track(timed('export pending', [202], [409], async () => (await exportPending(farmToExport)).status));
      }
      const due = stepStart + records * intervalMs;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    await Promise.all([...inFlight]);
    const seconds = (performance.now() - stepStart) / 1000;
    result.steps.push({
      recordsPerSecond: step.recordsPerSecond,
      seconds,
      lines: [...stats].map(([path, s]) => {
        const sorted = [...s.times].sort((a, b) => a - b);
        return {
          path,
          n: s.times.length,
          perSecond: (s.records || s.times.length) / seconds,
          p50: percentile(sorted, 50),
          p99: percentile(sorted, 99),
          errors: s.errors,
          conflicts: s.conflicts,
        };
      }),
    });
  }
  const fine = result.steps.filter((s) => s.lines.every((l) => l.p99 < 1000 && l.errors === 0));
  result.sustained = fine.length ? Math.max(...fine.map((s) => s.recordsPerSecond)) : null;

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
  for (const farm of farms) {
    for (const kind of ['treatment', 'fertilization'] as const) {
      for (const urn of await listAll(base, farm, entities(kind))) listed.set(urn, (listed.get(urn) ?? 0) + 1);
      const held = new Map<number, number>();
      const section = kind === 'treatment' ? 'TratamFito' : 'Fertilizacion';
      for (const e of await siex.notebook(section, farm.codigoRea)) held.set(e.idAjena, (held.get(e.idAjena) ?? 0) + 1);
      // One location a record, so one block, which keeps the record's number as its IdAjena.
      for (const a of accepted.filter((x) => x.farm === farm && x.kind === kind && !x.deleted)) {
        const n = held.get(Number(a.urn.split(':').pop())) ?? 0;
        if (n === 1) proof.heldOnce++;
        else proof.missing.push(`${a.urn} held ${n}x by SIEX`);
      }
    }
  }
  for (const urn of live) {
    const n = listed.get(urn) ?? 0;
    if (n === 1) proof.listedOnce++;
    else proof.missing.push(`${urn} listed ${n}x`);
  }
  // Anything listed that was not accepted, or was deleted: stored though refused, or not removed.
  for (const urn of listed.keys()) if (!live.has(urn)) proof.extra.push(`${urn} listed, not accepted or deleted`);
  return result;
}

async function settled(base: string, farm: PeakFarm, jobId: number): Promise<void> {
  for (;;) {
    const r = await call(base, farm, 'GET', `/v1/entities/jobstatus?jobId=${jobId}`);
    const status = (r.json as { status?: { name?: string } } | undefined)?.status?.name ?? '';
    if (status.startsWith('Finalizado') || status === 'Fallido') return;
    await new Promise((res) => setTimeout(res, 1000));
  }
}

async function listAll(base: string, farm: PeakFarm, entities: string): Promise<string[]> {
  const urns: string[] = [];
  for (let page = 1; ; page++) {
    const r = await call(
      base,
      farm,
      'GET',
      `/v1/entities/${entities}/?agrifarmId=${farm.agrifarmId}&page=${page}&page_size=100`,
    );
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
  for (const s of r.steps) {
    console.log(`\n  at ${s.recordsPerSecond.toFixed(3)} records/s for ${s.seconds.toFixed(0)} s`);
    console.log('  path                n   per s     p50 ms     p99 ms  errors  409/412');
    for (const l of s.lines)
      console.log(
        `  ${l.path.padEnd(16)} ${String(l.n).padStart(5)} ${l.perSecond.toFixed(2).padStart(7)} ${l.p50.toFixed(1).padStart(10)} ${l.p99.toFixed(1).padStart(10)} ${String(l.errors).padStart(7)} ${String(l.conflicts).padStart(8)}`,
      );
  }
  console.log(`\n  highest rate with every p99 under 1 s and no error: ${r.sustained ?? 'none'} records/s`);
  console.log(
    `  backlog: ${r.drain.jobs} export jobs of what was left pending, all settled ${r.drain.seconds.toFixed(1)} s after they were asked for`,
  );
  const p = r.proof;
  console.log(
    `  nothing lost: ${p.accepted} accepted, ${p.deleted} deleted; ${p.listedOnce} listed once, ${p.heldOnce} held once by SIEX; ` +
      `${p.missing.length} missing, ${p.extra.length} extra`,
  );
  for (const m of [...p.missing, ...p.extra].slice(0, 10)) console.log(`    ${m}`);
}
