import { DateTime } from 'luxon';
import { phytoRequest } from './fixtures';
import { Latency, measure } from './measure';
import { RoundTrips } from './storage-proxy';

/**
 * Issue 26 item 5: 100 records sent as one batch against the same 100 as single POSTs, each record on a crop location
 * of its own so every one is lawful, and the storage round trips each way costs per record. Figures only.
 */
export interface BatchFigures {
  records: number;
  batch: Latency;
  single: Latency;
  batchTripsPerRecord: number;
  singleTripsPerRecord: number;
}

const RECORDS = 100;

export async function benchBatch(o: {
  runnerUrl: string;
  headers: Record<string, string>;
  proxy: RoundTrips;
  agrifarmId: string;
  /** Crop locations no other scenario registers on: 2 × (samples + warm-up) × 100 of them. */
  idcps: number[];
  at: DateTime;
  samples: number;
}): Promise<BatchFigures> {
  const path = `/v1/entities/agriphytosanitarys`;
  const query = `?agrifarmId=${encodeURIComponent(o.agrifarmId)}`;
  const post = async (url: string, body: unknown): Promise<string> => {
    const res = await fetch(url, { method: 'POST', headers: o.headers, body: JSON.stringify(body) });
    const text = await res.text();
    if (res.status !== 200 && res.status !== 201) throw new Error(`${url}: ${res.status} ${text.slice(0, 300)}`);
    return text;
  };
  let next = 0;
  const hundred = () => Array.from({ length: RECORDS }, () => phytoRequest([o.idcps[next++]!], o.at));

  const run = async (send: (requests: ReturnType<typeof hundred>) => Promise<void>) => {
    let counted = 0;
    const latency = await measure(
      async (i) => {
        if (i === 0) {
          o.proxy.reset();
          counted = 0;
        }
        await send(hundred());
        if (i >= 0) counted += RECORDS;
      },
      o.samples,
      1,
    );
    return { latency, trips: o.proxy.count() / counted };
  };
  const batch = await run(async (requests) => {
    const answer = JSON.parse(await post(`${o.runnerUrl}${path}/batch${query}`, requests)) as { status: number }[];
    const refused = answer.filter((a) => a.status !== 201);
    if (refused.length > 0) throw new Error(`batch: ${refused.length} items refused`);
  });
  const single = await run(async (requests) => {
    for (const r of requests) await post(`${o.runnerUrl}${path}/${query}`, r);
  });
  return {
    records: RECORDS,
    batch: batch.latency,
    single: single.latency,
    batchTripsPerRecord: batch.trips,
    singleTripsPerRecord: single.trips,
  };
}

export function printBatch(f: BatchFigures): void {
  const row = (name: string, l: Latency, trips: number) =>
    console.log(
      `${name.padEnd(28)} ${String(l.n).padStart(3)} ${l.p50.toFixed(0).padStart(8)} ${l.p99.toFixed(0).padStart(8)} ` +
        `${(l.p50 / f.records).toFixed(2).padStart(10)} ${trips.toFixed(2).padStart(16)}`,
    );
  console.log(`\n${f.records} records                  n  p50 ms   p99 ms  ms/record  round trips/record`);
  row('one batch request', f.batch, f.batchTripsPerRecord);
  row(`${f.records} single POSTs`, f.single, f.singleTripsPerRecord);
  console.log(
    `requests against the rate limit: 1 against ${f.records}; p50 ratio ${(f.single.p50 / f.batch.p50).toFixed(2)}`,
  );
}
