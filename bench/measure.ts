import { performance } from 'node:perf_hooks';

export interface Latency {
  p50: number;
  p99: number;
  mean: number;
  n: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/**
 * Runs `fn` `warmup` times unmeasured, then `n` times one after another, and reports milliseconds: each call's, or the
 * milliseconds it returns (a storage floor times its storage calls alone, bench/floors.ts).
 */
export async function measure(
  fn: (i: number) => Promise<void | number>,
  n: number,
  warmup = Math.ceil(n / 10),
): Promise<Latency> {
  for (let i = 0; i < warmup; i++) await fn(-1 - i);
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const ms = await fn(i);
    times.push(typeof ms === 'number' ? ms : performance.now() - t);
  }
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), mean: times.reduce((a, b) => a + b, 0) / n, n };
}

export interface Row {
  name: string;
  gateway: Latency;
  floor: Latency;
  roundTrips: number;
  note?: string;
}

const ms = (v: number) => v.toFixed(2).padStart(8);

export function printRows(rows: Row[]): void {
  console.log(
    '\nrequest path                          n   gw p50   gw p99  flr p50  flr p99  p50 ratio  p99 ratio  round trips/req',
  );
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(34)} ${String(r.gateway.n).padStart(4)} ${ms(r.gateway.p50)} ${ms(r.gateway.p99)} ${ms(r.floor.p50)} ${ms(r.floor.p99)}` +
        `   ${(r.gateway.p50 / r.floor.p50).toFixed(2).padStart(6)}     ${(r.gateway.p99 / r.floor.p99).toFixed(2).padStart(6)}     ${r.roundTrips.toFixed(2).padStart(6)}` +
        (r.note ? `  (${r.note})` : ''),
    );
  }
  console.log(
    'latencies in ms; floor = the same storage reads/writes done directly against the same Azurite in this run',
  );
}
