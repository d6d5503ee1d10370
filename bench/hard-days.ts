import { MAX_PROBLEM_BYTES } from '../shared/http/problem';
import { Latency, measure } from './measure';
import { RoundTrips } from './storage-proxy';

/**
 * The bench figures of issue 15: what a request the gateway refuses costs it. An export naming 5,000 ids that are
 * not the farm's (which ids exist comes from the farm's record-key index, not from a read per id); the largest 400
 * (a 1 MB body of unknown keys, answered with the first 100 violations and their count); and a farm id that does not
 * exist beside one of another client (misses remembered like hits). Figures only.
 */
export interface Refusal {
  name: string;
  latency: Latency;
  roundTrips: number;
  bytes: number;
}

export async function benchHardDays(options: {
  runnerUrl: string;
  headers: Record<string, string>;
  proxy: RoundTrips;
  /** A farm of the bench client with many records, and one it may not see. */
  listAgrifarmId: string;
  foreignAgrifarmId: string;
}): Promise<Refusal[]> {
  const { runnerUrl, headers, proxy } = options;
  const refusal = async (name: string, n: number, path: string, body: string, status: number): Promise<Refusal> => {
    let bytes = 0;
    let counted = 0;
    const latency = await measure(async (i) => {
      if (i === 0) {
        proxy.reset();
        counted = 0;
      }
      const res = await fetch(`${runnerUrl}${path}`, { method: 'POST', headers, body });
      const text = await res.text();
      if (res.status !== status) throw new Error(`${name}: ${res.status} ${text.slice(0, 300)}`);
      bytes = Buffer.byteLength(text);
      if (i >= 0) counted++;
    }, n);
    return { name, latency, roundTrips: proxy.count() / counted, bytes };
  };

  const unknownIds = JSON.stringify(
    Array.from({ length: 5000 }, (_, i) => ({ id: `urn:ngsi-ld:AgriPhytosanitary:${9_500_000_000 + i}` })),
  );
  const exportPath = (agrifarmId: string) => `/v1/entities/siex/exportCUE?agrifarmId=${agrifarmId}`;
  // Short unknown keys fill 1 MB with the most violations; long ones make each listed violation as large as allowed.
  const shortKeys = jsonOfSize((i) => `k${i}`);
  const longKeys = jsonOfSize((i) => `${i}-${'x'.repeat(400)}`);
  const idcpPath = `/v1/siex/listidcp/?agrifarmId=${options.listAgrifarmId}`;
  const listIdcpBody = JSON.stringify({
    type: 'IDCP',
    crop: { type: 'TypeCropVariety', typecrop: { id: '102', type: 'TypeCrop', name: 'VIÑA' }, code: 1001, name: 'X' },
    regionalAttributes: [{ sigpac: [{ prov: '46', town: '1', aggr: '0', zone: '0', pol: '1', parc: '1', enc: '1' }] }],
  });
  return [
    await refusal('export naming 5,000 unknown ids', 50, exportPath(options.listAgrifarmId), unknownIds, 404),
    await refusal(`400: 1 MB of short unknown keys`, 30, idcpPath, shortKeys, 400),
    await refusal(`400: 1 MB of long unknown keys`, 30, idcpPath, longKeys, 400),
    await refusal(
      'listidcp of another client’s farm',
      300,
      `/v1/siex/listidcp/?agrifarmId=${options.foreignAgrifarmId}`,
      listIdcpBody,
      404,
    ),
    await refusal(
      'listidcp of a farm id that does not exist',
      300,
      '/v1/siex/listidcp/?agrifarmId=urn:ngsi-ld:AgriFarm:987654321',
      listIdcpBody,
      404,
    ),
  ];
}

/** A JSON object of unknown keys, just under the 1 MB body limit. */
function jsonOfSize(key: (i: number) => string): string {
  const parts: string[] = [];
  let size = 2;
  for (let i = 0; ; i++) {
    const part = `${JSON.stringify(key(i))}:0`;
    if (size + part.length + 1 > 1024 * 1024) break;
    parts.push(part);
    size += part.length + 1;
  }
  return `{${parts.join(',')}}`;
}

const ms = (v: number) => v.toFixed(2).padStart(8);

export function printHardDays(rows: Refusal[]): void {
  console.log('\nrefused requests (issue 15)                    n   gw p50   gw p99  round trips/req  answer bytes');
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(44)} ${String(r.latency.n).padStart(4)} ${ms(r.latency.p50)} ${ms(r.latency.p99)} ` +
        `${r.roundTrips.toFixed(2).padStart(16)} ${String(r.bytes).padStart(13)}`,
    );
  }
  console.log(`the largest problem answer the gateway can give: ${MAX_PROBLEM_BYTES} bytes (MAX_PROBLEM_BYTES)`);
}
