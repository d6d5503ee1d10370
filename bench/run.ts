import { DateTime } from 'luxon';
import { importDataset } from '../shared/backoffice/import';
import { FarmIndex } from '../shared/farms/farm-index';
import { FarmStore } from '../shared/farms/farm-store';
import { PhytoStore, StoredTreatment } from '../shared/phyto/phyto-store';
import { dayCountsSchema, dayOf, withApplication } from '../shared/records/application-history';
import { guardRowKey } from '../shared/records/record-keys';
import { creationChange } from '../shared/records/register-record';
import { phytoKind } from '../shared/phyto/phyto-kind';
import { blockKeysOf } from '../shared/siex/cue-mapping';
import { sigpacCode } from '../shared/farms/sigpac';
import { readChunkedDoc } from '../shared/store/chunked-doc';
import { TABLES, TableStore } from '../shared/store/tables';
import { devConnectionString, startAzurite } from '../local/azurite';
import { findProjectRoot } from '../local/stack';
import { startRunnerProcess } from '../local/runner/process';
import {
  BENCH_CLIENT,
  BENCH_PRODUCT,
  benchDataset,
  EXPORT_FARM,
  LARGE_FARM,
  LIST_FARM,
  MIX_FARM,
  mixRequest,
  phytoRequest,
  seedRecords,
} from './fixtures';
import { PhytoRequest } from '../shared/api/phyto-schemas';
import { productsOf } from '../shared/phyto/application-change';
import { measure, printRows, Row } from './measure';
import { startStorageProxy } from './storage-proxy';
import { ZONE } from '../shared/domain/dates';
import { buildRecord } from '../shared/phyto/record-view';
import { benchImportRegister } from './import-register';
import { importCatalogues } from '../shared/catalog/siex-codes/import-catalogues';
import { officialCataloguesDir } from '../local/siex-data';
import { SIMULATOR_DEFAULT_CREDENTIALS, startSiexSimulator } from '../local/siex-simulator/server';
import { startMailStub } from '../local/mail-stub/server';
import { benchExport, printExport } from './export';
import { benchColdStart, printColdStart } from './cold-start';
import { benchHardDays, printHardDays } from './hard-days';
import { benchCatalogue } from './catalogue';
import { benchBatch, printBatch } from './batch';
import { benchFertilizationRegister } from './fertilization';
import { performance } from 'node:perf_hooks';

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
const only = process.argv.slice(2);
const wanted = (name: string) => only.length === 0 || only.some((w) => name.startsWith(w));

async function main(): Promise<void> {
  const azurite = await startAzurite({ projectRoot: root, inMemory: true });
  const tablePort = Number(new URL(azurite.tableEndpoint).port);
  const queuePort = Number(new URL(azurite.queueEndpoint).port);
  const blobPort = Number(new URL(azurite.blobEndpoint).port);
  const proxy = await startStorageProxy(tablePort);
  const viaProxy = devConnectionString(proxy.port, queuePort, blobPort);
  const tables = new TableStore({ AzureWebJobsStorage: viaProxy });
  const dataset = benchDataset();
  await importDataset(dataset, tables);
  await importCatalogues(officialCataloguesDir(root), tables);
  // The export scenario's SIEX and e-mail service, in this process: the runner's IUWS client and mailer talk to them.
  const siex = await startSiexSimulator({ log: () => undefined });
  const mail = await startMailStub();
  const runnerEnv = {
    ...process.env,
    AzureWebJobsStorage: viaProxy,
    AUTH_MODE: 'local',
    RATE_LIMIT_PER_MINUTE: '100000000',
    SIEX_BASE_URL: siex.url,
    SIEX_USERNAME: SIMULATOR_DEFAULT_CREDENTIALS.username,
    SIEX_PASSWORD: SIMULATOR_DEFAULT_CREDENTIALS.password,
    EMAIL_CONNECTION_STRING: mail.connectionString,
    EMAIL_ENDPOINT: '',
  };
  const runner = await startRunnerProcess({ projectRoot: root, quiet: true, env: runnerEnv });
  const headers = {
    'Ocp-Apim-Sid-Key': BENCH_CLIENT.sid,
    'Ocp-Apim-Subscription-Key': BENCH_CLIENT.api,
    'Content-Type': 'application/json',
  };
  const farms = new FarmStore(tables, 0);
  const phyto = new PhytoStore(tables);
  const farmsTable = await tables.table(TABLES.farms);
  const rows: Row[] = [];

  /** Gateway latency and the storage round trips the gateway made per request. */
  const gateway = async (n: number, call: (i: number) => Promise<unknown>) => {
    const warmup = Math.ceil(n / 10);
    let counted = 0;
    const latency = await measure(
      async (i) => {
        if (i === 0) {
          proxy.reset();
          counted = 0;
        }
        await call(i);
        if (i >= 0) counted++;
      },
      n,
      warmup,
    );
    return { latency, roundTrips: proxy.count() / counted };
  };
  const http = async (method: string, path: string, body: unknown, expect: number) => {
    const res = await fetch(`${runner.url}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== expect) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return text ? (JSON.parse(text) as unknown) : undefined;
  };

  try {
    // The runner's very first request: the status of a job that does not exist (404 after the keys and one point
    // read). It pays for loading the handlers, the settings and the storage SDK, not for filling a data cache.
    const jobPath = '/v1/entities/jobstatus?jobId=999999999';
    // This process's first fetch loads Node's HTTP client (undici), which no warm request pays: it goes to the SIEX
    // simulator, so the first request's figure is the gateway's cold start and not the bench's own.
    await (await fetch(siex.url)).arrayBuffer();
    const firstStart = performance.now();
    await http('GET', jobPath, undefined, 404);
    const first = { ms: performance.now() - firstStart, warmP50: 0 };
    first.warmP50 = (await measure(async () => void (await http('GET', jobPath, undefined, 404)), 50)).p50;
    // Farm lookup of the 5,000-enclosure farm; its first request fills the farm cache.
    const lookupInfo = (await farms.lookupInfo(LARGE_FARM.rea, LARGE_FARM.year))!;
    const lookupStart = performance.now();
    await http('GET', `/v1/siex/farms?rea=${LARGE_FARM.rea}&year=${LARGE_FARM.year}`, undefined, 200);
    const firstLookupMs = performance.now() - lookupStart;
    const lookup = await gateway(200, () =>
      http('GET', `/v1/siex/farms?rea=${LARGE_FARM.rea}&year=${LARGE_FARM.year}`, undefined, 200),
    );
    if (only.includes('cold-start')) {
      printColdStart(benchColdStart(root), first, { ms: firstLookupMs, warmP50: lookup.latency.p50 });
      return;
    }
    if (wanted('farm lookup')) {
      const lookupFloor = await measure(
        async () => void (await readChunkedDoc(farmsTable, `lookup~${LARGE_FARM.rea}~${LARGE_FARM.year}`)),
        200,
      );
      rows.push({
        name: 'farm lookup (5,000 enclosures)',
        gateway: lookup.latency,
        floor: lookupFloor,
        roundTrips: lookup.roundTrips,
      });
    }

    // listidcp with 100 enclosures of the same farm.
    const large = (await farms.index(lookupInfo.farmId))!;
    const agrifarmId = `urn:ngsi-ld:AgriFarm:${lookupInfo.farmId}`;
    if (wanted('listidcp')) {
      const crop = large.doc.crops[0]!;
      const enclosures = large.doc.idcps
        .slice(0, 100)
        .map(({ prov, town, aggr, zone, pol, parc, enc }) => ({ prov, town, aggr, zone, pol, parc, enc }));
      const idcpBody = {
        type: 'IDCP',
        crop: {
          type: 'TypeCropVariety',
          typecrop: { id: crop.typecropId, type: 'TypeCrop', name: crop.typecropName },
          code: crop.code,
          name: crop.name,
        },
        regionalAttributes: [{ sigpac: enclosures }],
      };
      const listIdcp = await gateway(300, () =>
        http('POST', `/v1/siex/listidcp/?agrifarmId=${agrifarmId}`, idcpBody, 200),
      );
      const listIdcpFloor = await measure(
        async () => void (await readChunkedDoc(farmsTable, `farm~${lookupInfo.farmId}`)),
        300,
      );
      rows.push({
        name: 'listidcp (100 enclosures)',
        gateway: listIdcp.latency,
        floor: listIdcpFloor,
        roundTrips: listIdcp.roundTrips,
        note: 'farm index from memory; floor = reading it',
      });
    }

    // Registration: one record per request, each on its own crop location so every one is lawful.
    const at = DateTime.now().setZone(ZONE).minus({ hours: 1 });
    const idcps = large.doc.idcps.map((e) => e.idcp);
    const registry = new Map(dataset.products.map((p) => [p.code, p]));
    const product = registry.get(BENCH_PRODUCT)!;
    /**
     * The storage floor of one registration: the history rows of its products on the enclosure and an idempotency
     * key read in one query, then the record, its pointer, its first version and those rows in one transaction.
     */
    const registerFloor = async (farm: FarmIndex, id: number, idcp: number, request: PhytoRequest) => {
      const entry = farm.byIdcp.get(idcp)!;
      const sigpac = sigpacCode(entry);
      const guards = productsOf(request).map((code) => guardRowKey(code, sigpac));
      const state = await phyto.readRegistrationState(farm.meta, guards, `bench-${id}`);
      const mixed = request.mix?.map((m) => ({ product: registry.get(m.subtype.code)!, uses: product.uses }));
      const resolution = { entries: [entry], uses: product.uses, ...(mixed ? { mixed } : {}) };
      const record = buildRecord(id, request, product, resolution, farm, false, at);
      await phyto.commit(
        farm.meta,
        creationChange(phytoKind, {
          id,
          record,
          request,
          // one location, so one crop and variety, whose block takes the record id (shared/records/block-ids.ts)
          blockIds: Object.fromEntries(blockKeysOf(request.idcp, farm).map((key) => [key, id])),
          farmId: farm.meta.farmId,
          appliedAt: at,
          now: at,
          client: 'bench',
          guards: guards.map((rowKey) => ({
            rowKey,
            doc: withApplication(dayCountsSchema.parse(state.guards.get(rowKey)?.doc ?? {}), dayOf(at), 1),
          })),
          idempotency: null,
        }),
      );
    };
    const registered: string[] = [];
    const floorIds: number[] = [];
    if (wanted('register (1 location)') || wanted('amend')) {
      const register = await gateway(500, async (i) => {
        const [created] = (await http(
          'POST',
          `/v1/entities/agriphytosanitarys/?agrifarmId=${agrifarmId}`,
          phytoRequest([idcps[i + 100]!], at),
          201,
        )) as { id: string }[];
        registered.push(created!.id);
      });
      const floor = await measure(async (i) => {
        const id = 9_000_000_000 + i + 100;
        floorIds.push(id);
        await registerFloor(large, id, idcps[i + 1000]!, phytoRequest([idcps[i + 1000]!], at));
      }, 500);
      rows.push({
        name: 'register (1 location)',
        gateway: register.latency,
        floor,
        roundTrips: register.roundTrips,
        note: 'incl. id blocks of 50',
      });
    }

    // Issue 25: a fertilization (livestock manure) per request, on the same farm's locations in its own table.
    if (wanted('register fertilization')) {
      rows.push(await benchFertilizationRegister({ tables, farm: large, agrifarmId, idcps, at, gateway, http }));
    }

    // Issue 26: 100 records in one batch against 100 single POSTs, on crop locations no other row uses.
    let batchFigures: Awaited<ReturnType<typeof benchBatch>> | undefined;
    if (wanted('batch')) {
      batchFigures = await benchBatch({
        runnerUrl: runner.url,
        headers,
        proxy,
        agrifarmId,
        idcps: idcps.slice(2000, 3200),
        at,
        samples: 5,
      });
    }

    // A three-product tank mix on one location: three history rows read and written instead of one. On a copy of
    // the large farm, so that its holding partition starts as empty as the single registrations' did.
    if (wanted('register (3-product mix')) {
      const mixFarm = (await farms.index((await farms.lookupInfo(MIX_FARM.rea, MIX_FARM.year))!.farmId))!;
      const mixIdcps = mixFarm.doc.idcps.map((e) => e.idcp);
      const register = await gateway(500, (i) =>
        http(
          'POST',
          `/v1/entities/agriphytosanitarys/?agrifarmId=urn:ngsi-ld:AgriFarm:${mixFarm.meta.farmId}`,
          mixRequest([mixIdcps[i + 100]!], at),
          201,
        ),
      );
      const floor = await measure(
        (i) =>
          registerFloor(mixFarm, 9_100_000_000 + i + 100, mixIdcps[i + 1000]!, mixRequest([mixIdcps[i + 1000]!], at)),
        500,
      );
      rows.push({
        name: 'register (3-product mix, 1 location)',
        gateway: register.latency,
        floor,
        roundTrips: register.roundTrips,
        note: 'each product judged alone; 3 history rows',
      });
    }

    // Amend: a merge patch of the dose on each record just registered; the floor amends the floor's records.
    if (wanted('amend')) {
      const amend = await gateway(500, (i) =>
        http(
          'PATCH',
          `/v1/entities/agriphytosanitarys/${encodeURIComponent(registered[i + 50]!)}?agrifarmId=${agrifarmId}`,
          { dose: 0.7 },
          200,
        ),
      );
      const amendFloor = await measure(async (i) => {
        const id = floorIds[i + 50]!;
        const { application } = await phyto.readApplication(large.meta, id, null);
        const { pointer, request } = application as StoredTreatment;
        const sigpac = sigpacCode(large.byIdcp.get(Number(request.idcp[0]))!);
        const state = await phyto.readRegistrationState(large.meta, [guardRowKey('ES-99001', sigpac)], null);
        const after = { ...request, dose: 0.7 };
        const record = buildRecord(
          id,
          after,
          product,
          { entries: [large.byIdcp.get(Number(request.idcp[0]))!], uses: product.uses },
          large,
          false,
          at,
        );
        const guard = state.guards.get(guardRowKey('ES-99001', sigpac))!;
        await phyto.commit(large.meta, {
          id,
          write: { rowKey: pointer.recordRowKey, product: 'ES-99001', appliedAtMs: at.toMillis(), record },
          drop: pointer.recordRowKey,
          pointer: { etag: pointer.etag, row: { ...pointer, version: pointer.version + 1 }, request: after },
          guards: [guard],
          version: {
            version: pointer.version + 1,
            date: record.dateCreated,
            client: 'bench',
            kind: 'amended',
            changes: [{ field: 'dose', old: request.dose, new: 0.7 }],
          },
          idempotency: null,
          touchesKeys: true,
        });
      }, 500);
      rows.push({
        name: 'amend (1 location)',
        gateway: amend.latency,
        floor: amendFloor,
        roundTrips: amend.roundTrips,
        note: 'merge patch of the dose; floor = pointer, history, one transaction',
      });
    }

    // List: a farm with 10,000 records, a page of 100 from the middle.
    const listInfo = (await farms.lookupInfo(LIST_FARM.rea, LIST_FARM.year))!;
    // The refused requests read this farm too.
    if (wanted('list') || wanted('refused')) {
      const listFarm = (await farms.index(listInfo.farmId))!;
      await seedRecords(await tables.table(TABLES.phyto), listFarm, dataset, 10_000, 8_000_000_000);
      const listPath = `/v1/entities/agriphytosanitarys/?agrifarmId=urn:ngsi-ld:AgriFarm:${listInfo.farmId}&page=50&page_size=100`;
      const list = await gateway(100, () => http('GET', listPath, undefined, 200));
      // The storage work of a warm list: the keys inside the back-dating window (one query) and the page's records.
      const page = (await phyto.listKeys(listFarm.meta)).slice(4900, 5000);
      const windowStart = Date.now() - (7 + 2) * 24 * 3600_000;
      const listFloor = await measure(async () => {
        await phyto.scanKeys(listFarm.meta, windowStart);
        await phyto.readRange(listFarm.meta, page[0]!, page.at(-1)!);
      }, 100);
      rows.push({
        name: 'list (10,000 records, page of 100)',
        gateway: list.latency,
        floor: listFloor,
        roundTrips: list.roundTrips,
        note: 'keys older than the back-dating window from memory',
      });
    }

    printRows(rows);
    if (batchFigures) printBatch(batchFigures);
    if (wanted('cold start')) {
      printColdStart(benchColdStart(root), first, { ms: firstLookupMs, warmP50: lookup.latency.p50 });
    }

    // Refused requests: 5,000 unknown ids against the 10,000-record farm, the largest 400, misses and hits.
    if (wanted('refused')) {
      const notOurs = dataset.farms.find(
        (f) => ![LARGE_FARM.rea, LIST_FARM.rea, EXPORT_FARM.rea, MIX_FARM.rea].includes(f.rea),
      )!;
      const foreign = (await farms.lookupInfo(notOurs.rea, notOurs.year))!;
      printHardDays(
        await benchHardDays({
          runnerUrl: runner.url,
          headers,
          proxy,
          listAgrifarmId: `urn:ngsi-ld:AgriFarm:${listInfo.farmId}`,
          foreignAgrifarmId: `urn:ngsi-ld:AgriFarm:${foreign.farmId}`,
        }),
      );
    }

    // Export: 1,000 records in one job, SIEX at 50 ms per call.
    if (wanted('export')) {
      printExport(await benchExport({ runnerUrl: runner.url, headers, tables, dataset, siex, proxy }));
    }

    // Register import: the official bulk format, full size.
    // The catalogue scenario reads the register this one imports.
    if (wanted('import of the official register') || wanted('catalogue')) {
      const importStore = new TableStore({
        AzureWebJobsStorage: devConnectionString(tablePort, queuePort, blobPort),
      });
      const reg = await benchImportRegister(importStore);
      console.log(
        `\nregister import: ${reg.products} products, ${reg.uses} uses in ${reg.seconds.toFixed(1)} s, peak RSS ${reg.peakRssMb.toFixed(0)} MB`,
      );
    }

    // Catalogue: products for a crop over the register just imported, from runners started after the import.
    if (wanted('catalogue')) {
      const cat = await benchCatalogue({ root, env: runnerEnv, headers, proxy, tables });
      console.log(
        `\ncatalogue (issue 14): crop ${cat.crop}, ${cat.listed} of ${cat.products} products listed; ` +
          `answer ${(cat.allBytes / 1024).toFixed(0)} KB whole, ${(cat.pageBytes / 1024).toFixed(0)} KB a page of 100`,
      );
      printRows(cat.rows);
    }
  } finally {
    await runner.stop();
    await siex.stop();
    await mail.stop();
    await proxy.stop();
    await azurite.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
