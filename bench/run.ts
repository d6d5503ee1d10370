import { DateTime } from 'luxon';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { ZONE } from '../shared/domain/dates';
import { FarmStore } from '../shared/farms/farm-store';
import { PhytoStore } from '../shared/phyto/phyto-store';
import { TableStore } from '../shared/store/tables';
import { findProjectRoot } from '../local/stack';
import { benchBatch, printBatch } from './batch';
import { benchCatalogue } from './catalogue';
import {
  benchBareFirstRequest,
  benchColdStart,
  benchFirstAfterIdle,
  FIRST_REQUEST_PATH,
  FirstAndWarm,
  printColdStart,
} from './cold-start';
import { benchExport, printExport } from './export';
import { floorsFor } from './floors';
import { benchPeak, printPeak } from './peak';
import { EXPORT_FARM, LARGE_FARM, LIST_FARM, MIX_FARM, MIXED_EXPORT_FARM } from './fixtures';
import { benchHardDays, printHardDays } from './hard-days';
import { benchImportRegister } from './import-register';
import { measure, printRows, Row } from './measure';
import { REQUEST_ROWS, RowContext } from './request-rows';
import { BenchStack, GatewayCall, GatewayMeasure, gatewayCall, gatewayMeasure, startBenchStack } from './stack';

/**
 * `npm run bench`: every request path against the local stack in one run (Azurite, the Functions runner), each
 * beside its storage floor — the same storage operations done directly against the same Azurite, through the same
 * counting proxy — with the ratio and the storage round trips per request. Figures only; nothing is asserted.
 */
const root = findProjectRoot(__dirname);

/**
 * `npm run bench -- <word>...` runs only the scenarios whose names start with one of the words (`register` runs the
 * single-product and the mix registrations, `cold-start` the cold-start row alone: the first and warm requests, then the
 * fresh loads); without words, all of them.
 */
const { values, positionals: only } = parseArgs({
  options: { accounts: { type: 'string', default: '1' } },
  allowPositionals: true,
});
/**
 * `--accounts N`: the stack with N data accounts, farms spread over them (issue 37), as `npm start -- --accounts N`;
 * the peak run's figures on one and on two accounts, side by side (docs/capacity.md section 11).
 */
const accounts = Number(values.accounts);
if (!Number.isInteger(accounts) || accounts < 1 || accounts > 8)
  throw new Error('--accounts takes a count from 1 to 8');
const wanted = (name: string) => only.length === 0 || only.some((w) => name.startsWith(w));

/**
 * The runner's very first request, sent the moment the runner is ready (its warm-up, functions/index.ts, runs
 * meanwhile): the status of a job that does not exist (404 after the keys and one point read), which pays for loading
 * the handlers, the settings and the storage SDK, not for filling a data cache; then the first
 * farm lookup of the 5,000-enclosure farm, which fills the farm cache, and the warm ones after each.
 */
async function firstRequests(http: GatewayCall, gateway: GatewayMeasure) {
  const firstStart = performance.now();
  await http('GET', FIRST_REQUEST_PATH, undefined, 404);
  const first: FirstAndWarm = { ms: performance.now() - firstStart, warmP50: 0 };
  first.warmP50 = (await measure(async () => void (await http('GET', FIRST_REQUEST_PATH, undefined, 404)), 50)).p50;
  const lookupPath = `/v1/siex/farms?rea=${LARGE_FARM.rea}&year=${LARGE_FARM.year}`;
  const lookupStart = performance.now();
  await http('GET', lookupPath, undefined, 200);
  const firstLookupMs = performance.now() - lookupStart;
  const lookup = await gateway(200, () => http('GET', lookupPath, undefined, 200));
  return { first, firstLookup: { ms: firstLookupMs, warmP50: lookup.latency.p50 }, lookup };
}

async function rowContext(
  stack: BenchStack,
  http: GatewayCall,
  gateway: GatewayMeasure,
  lookup: RowContext['lookup'],
): Promise<RowContext> {
  const farms = new FarmStore(stack.tables, 0);
  const large = (await farms.index((await farms.lookupInfo(LARGE_FARM.rea, LARGE_FARM.year))!.farmId))!;
  return {
    http,
    gateway,
    tables: stack.tables,
    dataset: stack.dataset,
    farms,
    phyto: new PhytoStore(stack.tables),
    large,
    agrifarmId: `urn:ngsi-ld:AgriFarm:${large.meta.farmId}`,
    idcps: large.doc.idcps.map((e) => e.idcp),
    at: DateTime.now().setZone(ZONE).minus({ hours: 1 }),
    floors: await floorsFor(stack.tables),
    lookup,
    registered: [],
    floorIds: [],
  };
}

/** Issue 26: 100 records in one batch against 100 single POSTs, on crop locations no other row uses. */
function batchAgainstSingles(stack: BenchStack, ctx: RowContext) {
  return benchBatch({
    runnerUrl: stack.runnerUrl,
    headers: stack.headers,
    proxy: stack.proxy,
    agrifarmId: ctx.agrifarmId,
    idcps: ctx.idcps.slice(2000, 3200),
    at: ctx.at,
    samples: 5,
  });
}

/** Refused requests: 5,000 unknown ids against the 10,000-record farm, the largest 400, misses and hits. */
async function refusals(stack: BenchStack, farms: FarmStore) {
  const ours = [LARGE_FARM.rea, LIST_FARM.rea, EXPORT_FARM.rea, MIX_FARM.rea, MIXED_EXPORT_FARM.rea];
  const notOurs = stack.dataset.farms.find((f) => !ours.includes(f.rea))!;
  const list = (await farms.lookupInfo(LIST_FARM.rea, LIST_FARM.year))!;
  const foreign = (await farms.lookupInfo(notOurs.rea, notOurs.year))!;
  return benchHardDays({
    runnerUrl: stack.runnerUrl,
    headers: stack.headers,
    proxy: stack.proxy,
    listAgrifarmId: `urn:ngsi-ld:AgriFarm:${list.farmId}`,
    foreignAgrifarmId: `urn:ngsi-ld:AgriFarm:${foreign.farmId}`,
  });
}

/** The official register, full size, imported straight into Azurite; the catalogue scenario reads it. */
async function registerImport(stack: BenchStack) {
  const reg = await benchImportRegister(new TableStore({ AzureWebJobsStorage: stack.directStorage }));
  console.log(
    `\nregister import: ${reg.products} products, ${reg.uses} uses in ${reg.seconds.toFixed(1)} s, peak RSS ${reg.peakRssMb.toFixed(0)} MB`,
  );
}

/** Products for a crop over the register just imported, from runners started after the import. */
async function catalogue(stack: BenchStack) {
  const { headers, proxy, tables, runnerEnv: env } = stack;
  const cat = await benchCatalogue({ root, env, headers, proxy, tables });
  console.log(
    `\ncatalogue (issue 14): crop ${cat.crop}, ${cat.listed} of ${cat.products} products listed; ` +
      `answer ${(cat.allBytes / 1024).toFixed(0)} KB whole, ${(cat.pageBytes / 1024).toFixed(0)} KB a page of 100`,
  );
  printRows(cat.rows);
}

/** The fresh loads, the first request after an idle instance and the bare app's, beside the first requests above. */
async function coldStart(stack: BenchStack, first: FirstAndWarm, firstLookup: FirstAndWarm) {
  const afterIdle = await benchFirstAfterIdle(root, stack.runnerEnv, stack.headers);
  printColdStart(benchColdStart(root), first, afterIdle, firstLookup, await benchBareFirstRequest(root));
}

async function main(): Promise<void> {
  const stack = await startBenchStack(root, { accounts });
  try {
    const http = gatewayCall(stack);
    const gateway = gatewayMeasure(stack.proxy);
    const { first, firstLookup, lookup } = await firstRequests(http, gateway);
    if (only.includes('cold-start')) {
      await coldStart(stack, first, firstLookup);
      return;
    }
    // Named only: the peak takes minutes and a thousand farms of its own, and needs none of the rows' seeding.
    if (only.includes('peak')) {
      printPeak(await benchPeak(stack));
      return;
    }
    const ctx = await rowContext(stack, http, gateway, lookup);
    const rows: Row[] = [];
    for (const row of REQUEST_ROWS) if (wanted(row.name) || row.alsoFor?.some(wanted)) rows.push(await row.run(ctx));
    const batch = wanted('batch') ? await batchAgainstSingles(stack, ctx) : undefined;
    printRows(rows);
    if (batch) printBatch(batch);
    if (wanted('cold start')) await coldStart(stack, first, firstLookup);
    if (wanted('refused')) printHardDays(await refusals(stack, ctx.farms));
    // 1,000 records in one job, SIEX at 50 ms per call.
    if (wanted('export')) printExport(await benchExport(stack));
    if (wanted('export mixed')) printExport(await benchExport(stack, 'mixed'));
    if (wanted('import of the official register') || wanted('catalogue')) await registerImport(stack);
    if (wanted('catalogue')) await catalogue(stack);
  } finally {
    await stack.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
