import { performance } from 'node:perf_hooks';
import { Dataset } from '../shared/backoffice/dataset-schema';
import { FarmStore } from '../shared/farms/farm-store';
import { TableStore } from '../shared/store/tables';
import { RunningSiexSimulator } from '../local/siex-simulator/server';
import { seedFertilizations } from './fertilization';
import { EXPORT_FARM, MIXED_EXPORT_FARM, seedRecords } from './fixtures';
import { RoundTrips } from './storage-proxy';

/**
 * The export scenario of `npm run bench` (issue 4): 1,000 sendable records (infection, tj, efficacy; the farm's
 * enclosures carry DGC codes) exported in one job through the runner, with the SIEX simulator answering every call
 * after SIEX_LATENCY_MS. Reports the seconds from the POST to FinalizadoCompleto and the SIEX calls per record
 * (comunicacion + crear + comprobarEstado, from the simulator's statistics), with where the time went. Figures only.
 */
const EXPORT_RECORDS = 1000;
/** Issue 25's mixed job: half treatments, half fertilizations, one CUE document with both sections. */
export type ExportMix = 'treatments' | 'mixed';
const SIEX_LATENCY_MS = 50;
const FIRST_ID = 7_000_000_000;
const POLL_MS = 25;

export interface ExportFigures {
  mix: ExportMix;
  records: number;
  status: string;
  /** From sending the POST to the first jobstatus answer saying 3 (or another final status). */
  seconds: number;
  postMs: number;
  /** From the POST to the simulator's first crear. */
  firstCrearMs: number;
  calls: { comunicacion: number; crear: number; comprobarEstado: number };
  callsPerRecord: number;
  storageRoundTrips: number;
  /** The simulator's time from crear to FINALIZADO. */
  processingMs: number;
}

export async function benchExport(
  options: {
    runnerUrl: string;
    headers: Record<string, string>;
    tables: TableStore;
    dataset: Dataset;
    siex: RunningSiexSimulator;
    proxy: RoundTrips;
  },
  mix: ExportMix = 'treatments',
): Promise<ExportFigures> {
  const { runnerUrl, headers, tables, dataset, siex, proxy } = options;
  const farms = new FarmStore(tables, 0);
  const { rea, year } = mix === 'treatments' ? EXPORT_FARM : MIXED_EXPORT_FARM;
  const info = (await farms.lookupInfo(rea, year))!;
  const farm = (await farms.index(info.farmId))!;
  const treatments = mix === 'treatments' ? EXPORT_RECORDS : EXPORT_RECORDS / 2;
  const fertilizations = EXPORT_RECORDS - treatments;
  await seedRecords(tables, farm, dataset, treatments, FIRST_ID);
  await seedFertilizations(tables, farm, fertilizations, FIRST_ID);
  const body = [
    ...Array.from({ length: treatments }, (_, i) => ({ id: `urn:ngsi-ld:AgriPhytosanitary:${FIRST_ID + i}` })),
    ...Array.from({ length: fertilizations }, (_, i) => ({ id: `urn:ngsi-ld:AgriFertilize:${FIRST_ID + i}` })),
  ];

  siex.state.reset();
  siex.state.control({ latencyMs: SIEX_LATENCY_MS });
  proxy.reset();
  const t0 = performance.now();
  const res = await fetch(`${runnerUrl}/v1/entities/siex/exportCUE?agrifarmId=urn:ngsi-ld:AgriFarm:${info.farmId}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  });
  const postMs = performance.now() - t0;
  const text = await res.text();
  if (res.status !== 202) throw new Error(`export: ${res.status} ${text.slice(0, 300)}`);
  const jobId = (JSON.parse(text) as { id: number }).id;

  let firstCrearMs = NaN;
  let status: string;
  for (;;) {
    if (Number.isNaN(firstCrearMs) && siex.state.stats().calls.crear > 0) firstCrearMs = performance.now() - t0;
    const job = await fetch(`${runnerUrl}/api-service/v1/entities/jobstatus?jobId=${jobId}`, { headers });
    const view = (await job.json()) as { status: { id: string; name: string }; error: unknown };
    if (Number(view.status.id) >= 3) {
      status = view.status.name + (view.error ? ` ${JSON.stringify(view.error)}` : '');
      break;
    }
    if (performance.now() - t0 > 120_000) throw new Error(`export job ${jobId} still ${view.status.name} after 120 s`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  const seconds = (performance.now() - t0) / 1000;
  const { calls } = siex.state.stats();
  const { comunicacion, crear, comprobarEstado } = calls;
  return {
    mix,
    records: EXPORT_RECORDS,
    status,
    seconds,
    postMs,
    firstCrearMs,
    calls: { comunicacion, crear, comprobarEstado },
    callsPerRecord: (comunicacion + crear + comprobarEstado) / EXPORT_RECORDS,
    storageRoundTrips: proxy.count(),
    processingMs: siex.state.knobs.processingMs,
  };
}

export function printExport(f: ExportFigures): void {
  console.log(
    `\nexport to SIEX: ${f.records.toLocaleString('en')} ${f.mix === 'mixed' ? 'records (half treatments, half fertilizations)' : 'records'} in one job, SIEX simulator at ${SIEX_LATENCY_MS} ms per call ` +
      `(processing ${f.processingMs} ms): ` +
      `${f.seconds.toFixed(2)} s from the POST to ${f.status}; ${f.callsPerRecord.toFixed(4)} SIEX calls per record ` +
      `(comunicacion ${f.calls.comunicacion} + crear ${f.calls.crear} + comprobarEstado ${f.calls.comprobarEstado})`,
  );
  console.log(
    `  POST answered in ${f.postMs.toFixed(0)} ms, first crear at ${f.firstCrearMs.toFixed(0)} ms; ` +
      `storage round trips (job status polls every ${POLL_MS} ms included): ${f.storageRoundTrips}`,
  );
}
