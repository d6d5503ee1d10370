import { HttpRequest, HttpResponseInit, InvocationContext } from '@azure/functions';
import { buildDemoDataset } from '../../local/demo/build-dataset';
import { silentLogger } from '../../shared/log/logger';
import { systemClock } from '../../shared/time/clock';
import { DateTime } from 'luxon';
import { recordContracts } from '../../shared/http/contracts/record-contracts';
import { PhytoRequest } from '../../shared/phyto/wire';
import { StoredTreatment } from '../../shared/phyto/stored-record';
import { Treatment } from '../../shared/phyto/treatment';
import { createServices, Services } from '../../shared/app/services';
import { createUseCases } from '../../shared/app/use-cases';
import { registerRecord } from '../../functions/record-register';
import { Applicator } from '../../shared/catalog/applicator';
import { ClientRegistration } from '../../shared/clients/client-registration';
import { Dataset } from '../../shared/backoffice/dataset-schema';
import { Farm } from '../../shared/farms/farm';
import { Product } from '../../shared/catalog/product';
import { CATALOGUES } from '../../shared/app/siex-catalogues';
import { importCatalogues } from '../../shared/catalog/siex-codes/import-catalogues';
import { parseSettings } from '../../shared/config/config';
import { ZONE } from '../../shared/domain/dates';
import { endpoint } from '../../shared/http/endpoint';
import { RegisterDeps } from '../../shared/records/register-record';
import { phytoKind, PhytoResolution } from '../../shared/phyto/phyto-kind';
import { RecordResult } from '../../shared/records/record-result';
import { recordReply } from '../../shared/http/record-reply';
import { exportReply } from '../../shared/http/export-reply';
import { ExportResult } from '../../shared/export/export-result';
import { FarmStore } from '../../shared/farms/farm-store';
import { sigpacCode } from '../../shared/farms/sigpac';
import { PhytoStore } from '../../shared/phyto/phyto-store';
import { FarmKey } from '../../shared/records/record-keys';
import { Client } from '../../shared/clients/client-store';
import { FarmIndex } from '../../shared/farms/farm-index';
import { startExport } from '../../shared/export/export-service';
import type { ExportKinds } from '../../shared/export/export-kinds';
import type { WorkerDeps } from '../../shared/export/worker';
import { officialCataloguesDir } from '../../local/siex-data';
import { findProjectRoot } from '../../local/stack';
import { ANCHOR, CAMPAIGN, enclosure, TEST_MAX_BACKDATE_DAYS, testClient, testFarm, uniqueRea } from './dataset';
import { call, get, Keys, postJson, Reply, seed } from './http';
import { apiTime, famolins, microthiol, poltigliaUnlimited, ProductRequest, topik } from './phyto-fixtures';
import { holdingEntities, storageConnection, storageSettings, StorageSettings, testTables } from './storage';
import { phytoEntry } from '../../shared/phyto/kind-entry';

/**
 * What the issue-3 integration and e2e tests share: one reference set (products like the demo's under codes of their
 * own, ES-91xxx, and ROPO cards ES-9100000x), identical in every file that imports it so that files running in
 * parallel never change each other's catalog; per-file farms and clients with unique REAs and ids; requests dated
 * relative to the real clock for the gateway (which reads its own clock) or to an injected `now` in process.
 */

export const P = {
  /** MICROTHIOL-like: vine 0.25-0.8 % (6 per campaign, 7 days apart), olive 0.25-0.75 % (3, 10 days apart). */
  microthiol: 'ES-91179',
  /** FAMOLINS-like: vine 20-30 kg/ha, 4 per campaign, 10 days apart. */
  famolins: 'ES-91534',
  /** TOPIK-like: wheat 0.17-0.2 L/ha, once per campaign, `cualificado` card. */
  topik: 'ES-91548',
  /** Copper on vine and olive, 0.6-0.62 %, no count, interval or months. */
  unlimited: 'ES-91616',
  /** Copper on vine and olive, 0.6-0.62 %, at most 2 per campaign, no interval. */
  twice: 'ES-91617',
  /** MICROTHIOL-like, expired on 31-12-2020 with no last-use date. */
  expired: 'ES-91999',
  /** An acaricide on vine against the yellow mite (PLAGAS 18), 0.05-0.1 %, 3 per campaign, 7 days apart, 21 days' safety. */
  acaricide: 'ES-91620',
} as const;

const FAR = { registered: '01-01-2000', expires: '31-12-2099', lastUse: '' };
const noMonths = (p: Product): Product => ({ ...p, uses: p.uses.map(({ months: _, ...u }) => u) });

export function phytoProducts(): Product[] {
  const copper = poltigliaUnlimited({ ...FAR, code: P.unlimited });
  return [
    noMonths(microthiol({ ...FAR, code: P.microthiol })),
    noMonths(famolins({ ...FAR, code: P.famolins })),
    noMonths(topik({ ...FAR, code: P.topik })),
    copper,
    {
      ...copper,
      code: P.twice,
      name: 'POLTIGLIA 20 WP (2 aplicaciones)',
      uses: copper.uses.map((u) => ({ ...u, maxApplications: 2 })),
    },
    noMonths(microthiol({ registered: '01-01-2000', expires: '31-12-2020', lastUse: '', code: P.expired })),
    {
      ...copper,
      code: P.acaricide,
      name: 'ACARICIDA DE PRUEBA',
      type: { id: 2, name: 'Acaricida' },
      uses: [
        {
          cropTypeIds: ['102'],
          pest: { code: 18, kind: 'plaga', name: 'Araña amarilla, Eotetranychus carpini' },
          doseMin: 0.05,
          doseMax: 0.1,
          unit: { code: 14, symbol: '%' },
          maxApplications: 3,
          minIntervalDays: 7,
          safetyDays: 21,
        },
      ],
    },
    // The demo's post-harvest wax, store insecticide and seed dressing (issue 34): uses scoped postharvest, facility
    // and seed.
    ...buildDemoDataset().products.filter((p) => ['ES-16232', 'ES-25710', 'ES-00080'].includes(p.code)),
  ];
}

/** The last valid day of APPLICATORS.advisorUntil: fixed, for tests that inject their clock around it. */
export const ADVISOR_LAST_DAY = '15-06-2026';

export const APPLICATORS = {
  basico: {
    nif: '91000001H',
    name: 'Aplicador Básico',
    ropo: 'ES-91000001',
    levels: ['basico'],
    validUntil: '31-12-2099',
    suspended: false,
  },
  cualificado: {
    nif: '91000002L',
    name: 'Aplicadora Cualificada',
    ropo: 'ES-91000002',
    levels: ['cualificado'],
    validUntil: '31-12-2099',
    suspended: false,
  },
  suspended: {
    nif: '91000003C',
    name: 'Aplicador Suspendido',
    ropo: 'ES-91000003',
    levels: ['cualificado'],
    validUntil: '31-12-2099',
    suspended: true,
  },
  expired: {
    nif: '91000004K',
    name: 'Aplicadora Caducada',
    ropo: 'ES-91000004',
    levels: ['basico'],
    validUntil: '31-12-2020',
    suspended: false,
  },
  /**
   * Advisors (RD 1311/2012, arts. 11-12), with the registration `asesor`: in force; an applicator too, to a fixed last
   * day (ADVISOR_LAST_DAY); suspended.
   */
  advisor: {
    nif: '91000005E',
    name: 'Asesora en Vigor',
    ropo: 'ES-91000005',
    levels: ['asesor'],
    validUntil: '31-12-2099',
    suspended: false,
  },
  advisorUntil: {
    nif: '91000006T',
    name: 'Asesor Hasta el 15 de Junio',
    ropo: 'ES-91000006',
    levels: ['basico', 'asesor'],
    validUntil: ADVISOR_LAST_DAY,
    suspended: false,
  },
  advisorSuspended: {
    nif: '91000007R',
    name: 'Asesora Suspendida',
    ropo: 'ES-91000007',
    levels: ['asesor'],
    validUntil: '31-12-2099',
    suspended: true,
  },
} satisfies Record<string, Applicator>;

/**
 * A farm with vine (102, variety 1001) on `vineEnclosures` enclosures of two parcels, olive (101) on one and wheat (1)
 * on one. Its idcps, in that order, are what `idcpsOf` returns.
 */
export function phytoFarm(rea: string, vineEnclosures = 4, year = CAMPAIGN): Farm {
  const vine = Array.from({ length: vineEnclosures }, (_, i) => enclosure(12, 45 + Math.floor(i / 10), (i % 10) + 1));
  return testFarm(rea, {
    year,
    description: 'Viña, olivar y trigo de prueba',
    crops: [
      {
        typecrop: { id: '102', name: 'VIÑA' },
        code: 1001,
        name: 'TEMPRANILLO',
        parcels: [
          { name: 'La Hoya', sigpac: vine.slice(0, Math.ceil(vineEnclosures / 2)) },
          { name: 'El Pinar', sigpac: vine.slice(Math.ceil(vineEnclosures / 2)) },
        ].filter((p) => p.sigpac.length > 0),
      },
      {
        typecrop: { id: '101', name: 'OLIVO' },
        code: 2001,
        name: 'BLANQUETA',
        parcels: [{ name: 'Los Olivos', sigpac: [enclosure(15, 102, 3)] }],
      },
      {
        typecrop: { id: '1', name: 'TRIGO BLANDO' },
        code: 3001,
        name: 'FILON',
        parcels: [{ name: 'Páramo Alto', sigpac: [enclosure(3, 21, 1, '47', '12.40')] }],
      },
    ],
  });
}

/** Imports the shared reference set plus the given farms and clients (the official catalogues too, idempotently), into the stack's Azurite or `tables`. */
export async function seedPhyto(
  parts: { farms: Farm[]; clients: ClientRegistration[] },
  tables = testTables(),
): Promise<void> {
  await importCatalogues(officialCatalogues(), tables, CATALOGUES);
  const dataset: Dataset = {
    clients: parts.clients,
    applicators: Object.values(APPLICATORS),
    products: phytoProducts(),
    farms: parts.farms,
  };
  await seed(dataset, tables);
}

/** The official SIEX catalogues the project carries (data/siex/catalogues). */
function officialCatalogues(): string {
  return officialCataloguesDir(findProjectRoot(__dirname));
}

export { testClient, uniqueRea };

/** The farm id and idcps (vine..., olive, wheat) of an imported farm, read from storage as the gateway reads them. */
export async function farmOf(
  rea: string,
  year = CAMPAIGN,
): Promise<{
  farmId: number;
  key: FarmKey;
  agrifarmId: string;
  vine: string[];
  olive: string;
  wheat: string;
  /** The SIGPAC code of an idcp's enclosure: what the history rows are keyed by. */
  sigpac: (idcp: string) => string;
}> {
  const store = new FarmStore(testTables(), 0);
  const info = await store.lookupInfo(rea, year);
  if (!info) throw new Error(`farm ${rea} was not imported`);
  const index = (await store.index(info.farmId))!;
  const byCrop = (typecrop: string) =>
    index.doc.idcps.filter((e) => index.cropOf(e).typecropId === typecrop).map((e) => String(e.idcp));
  return {
    farmId: info.farmId,
    key: index.meta,
    sigpac: (idcp) => sigpacCode(index.byIdcp.get(Number(idcp))!),
    agrifarmId: `urn:ngsi-ld:AgriFarm:${info.farmId}`,
    vine: byCrop('102'),
    olive: byCrop('101')[0],
    wheat: byCrop('1')[0],
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Requests.

/** A Madrid wall-clock time `days` days before `from` (default: the tests' anchor, see ANCHOR) at hh:mm, as the API writes it. */
export function daysAgo(days: number, hhmm = '08:00', from: DateTime = ANCHOR): string {
  const [h, m] = hhmm.split(':').map(Number);
  return apiTime(from.setZone(ZONE).minus({ days }).set({ hour: h, minute: m, second: 0, millisecond: 0 }));
}

/** A lawful application of the unlimited copper product on the given vine idcps, one day ago unless said otherwise. */
export function body(o: Partial<PhytoRequest> = {}): ProductRequest {
  return {
    type: 'AgriPhytosanitary',
    dateApplication: daysAgo(1),
    subtype: { type: 'TypePhytosanitary', name: 'POLTIGLIA 20 WP', code: P.unlimited },
    dose: 0.61,
    measure: { type: 'Measure', name: 'Porcentaje', symbol: '%', code: 14 },
    idcp: [],
    applicator: { user: { type: 'UserMetadata', nif: APPLICATORS.basico.nif, ropo: APPLICATORS.basico.ropo } },
    ...o,
  };
}

export const REGISTER_PATH = '/v1/entities/agriphytosanitarys/';

export function register(
  keys: Keys,
  agrifarmId: string,
  b: unknown,
  headers: Record<string, string> = {},
  query = '',
): Promise<Reply> {
  return postJson(`${REGISTER_PATH}?agrifarmId=${encodeURIComponent(agrifarmId)}${query}`, b, keys, headers);
}

/** A merge patch of a treatment over HTTP (no If-Match: the last writer wins, as the interface allows). */
export function amend(keys: Keys, agrifarmId: string, id: string, changes: unknown): Promise<Reply> {
  return call('PATCH', `${REGISTER_PATH}${encodeURIComponent(id)}?agrifarmId=${encodeURIComponent(agrifarmId)}`, {
    keys,
    headers: { 'Content-Type': 'application/merge-patch+json' },
    body: JSON.stringify(changes),
  });
}

export function list(keys: Keys, agrifarmId: string, query: Record<string, string> = {}): Promise<Reply> {
  const qs = new URLSearchParams({ agrifarmId, ...query }).toString();
  return get(`${REGISTER_PATH}?${qs}`, keys);
}

// ---------------------------------------------------------------------------------------------------------------
// In process, on the shared Azurite.

/**
 * The gateway's services on the test Azurite, with a rate limit that a property test cannot reach. With a cache
 * period, reference data, clients and farms are read once: only for data imported before the first request.
 */
/**
 * The storage connection of in-process services: the shared Azurite, with a queue endpoint of their own (`scope`)
 * that nothing listens on. Export jobs are watched per export queue (shared/export/job-watch.ts), so neither the
 * shared runner's sweeper nor another file's sweeps ever take up a job a test runs in process; such tests queue
 * nothing (they run the worker, and the sweeper, themselves).
 */
export function inProcessConnection(scope = 'tests'): string {
  return storageConnection().replace(/QueueEndpoint=[^;]+/, `QueueEndpoint=http://127.0.0.1:9/in-process-${scope}`);
}

/** The shared stack's data accounts, the first reached by `inProcessConnection(scope)`: what in-process services use. */
export function inProcessStorage(scope?: string): StorageSettings {
  return storageSettings((connection, account) => (account === 0 ? inProcessConnection(scope) : connection));
}

/**
 * Services in this process on the shared stack's accounts (`inProcessStorage`); `storage` reaches them another way
 * (e.g. through fault proxies).
 */
export function inProcessServices(
  cacheSeconds = 0,
  scope?: string,
  storage: StorageSettings = inProcessStorage(scope),
): Services {
  return createServices(
    parseSettings({
      ...storage,
      AUTH_MODE: 'local',
      RATE_LIMIT_PER_MINUTE: '1000000',
      MAX_BACKDATE_DAYS: String(TEST_MAX_BACKDATE_DAYS),
      REFERENCE_CACHE_SECONDS: String(cacheSeconds),
    }),
    systemClock,
    // Tests that look at the log pass a logger of their own to what they run.
    silentLogger,
  );
}

/** Starts an export job of these records in process, as exportCUE would, without queueing it; its job id. */
export async function inProcessExport(
  svc: Services,
  client: Client,
  farm: FarmIndex,
  agrifarmId: string,
  ids: number[],
): Promise<number> {
  const { jobId } = await startExport(
    {
      kinds: await svc.exportKinds(),
      jobs: svc.jobs,
      watch: svc.watch,
      enqueue: async () => undefined,
    },
    client,
    farm,
    agrifarmId,
    ids.map((id) => ({ id: `urn:ngsi-ld:AgriPhytosanitary:${id}` })),
    await svc.jobIds.take(),
  );
  return jobId;
}

/**
 * What the export worker runs on in process: the services' stores, 10 records a batch, SIEX polled every millisecond
 * or two; `parts` brings SIEX, the mailer and whatever the test sets otherwise (the poll's deadline, a clock, a log).
 */
export function inProcessWorker(
  svc: Services,
  kinds: ExportKinds,
  parts: Pick<WorkerDeps, 'siex' | 'mailer'> & Partial<WorkerDeps>,
): WorkerDeps {
  return {
    jobs: svc.jobs,
    watch: svc.watch,
    kinds,
    farms: svc.farms,
    batchSize: 10,
    poll: { firstMs: 1, maxMs: 2, deadlineMs: 1000 },
    ...parts,
  };
}

export function registerDeps(
  svc: Services,
  now: () => DateTime,
): RegisterDeps<Treatment, StoredTreatment, PhytoResolution> {
  return {
    kind: phytoKind,
    farms: svc.farms,
    reference: svc.reference,
    store: svc.kinds.of(phytoEntry).store,
    ids: svc.kinds.of(phytoEntry).ids,
    settings: { MAX_BACKDATE_DAYS: 7 },
    now,
  };
}

/** A record service's result as the HTTP edge answers it (shared/http/record-reply.ts): status, body text, ETag. */
export function asReply(result: RecordResult): { status: number; body: string; etag?: string } {
  const reply = recordReply(result);
  return { status: reply.status, body: reply.rawJson, ...(reply.headers.ETag ? { etag: reply.headers.ETag } : {}) };
}

/** The export operation's result as the HTTP edge answers it (shared/http/export-reply.ts): status and body text. */
export function asExportReply(result: ExportResult): { status: number; body: string } {
  const reply = exportReply(result);
  return { status: reply.status, body: reply.rawJson };
}

/**
 * The POST handler exactly as functions/record-register.ts makes it for treatments, through the same pipeline, with
 * the services and the clock injected: what the property test drives in process.
 */
export function inProcessRegister(svc: Services, now: () => DateTime) {
  const handler = endpoint(recordContracts(phytoEntry).register, registerRecord(phytoEntry), () => ({
    gate: svc.gate,
    useCases: createUseCases({ ...svc, now }),
  }));
  let n = 0;
  return async (
    keys: Keys,
    agrifarmId: string,
    rawBody: string,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; json: any; text: string }> => {
    const request = new HttpRequest({
      method: 'POST',
      url: `http://localhost${REGISTER_PATH}?agrifarmId=${encodeURIComponent(agrifarmId)}`,
      headers: {
        'Ocp-Apim-Sid-Key': keys.sidKey,
        'Ocp-Apim-Subscription-Key': keys.apiKey,
        'Content-Type': 'application/json',
        ...headers,
      },
      body: { string: rawBody },
    });
    const context = new InvocationContext({
      invocationId: `phyto-${++n}`,
      functionName: 'registerPhytosanitary',
      logHandler: () => undefined,
    });
    const res: HttpResponseInit = await handler(request, context);
    const text = typeof res.body === 'string' ? res.body : '';
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status ?? 200, json, text };
  };
}

/** Every row of a farm's holding partition (records, pointers, guards, idempotency entries), by row key. */
export async function partitionRows(farm: FarmKey): Promise<Map<string, Record<string, unknown>>> {
  return new Map((await holdingEntities(testTables(), 'phyto', farm)).map((e) => [String(e.rowKey), e]));
}

export async function recordCount(farm: FarmKey): Promise<number> {
  return (await new PhytoStore(testTables()).listKeys(farm)).length;
}

/** A farm as a client learns it over HTTP: its agrifarmId and idcps (vine..., olive, wheat) from the farm lookup. */
export async function farmOverHttp(
  keys: Keys,
  rea: string,
  year = CAMPAIGN,
): Promise<{ agrifarmId: string; vine: string[]; olive: string; wheat: string }> {
  const res = await get(`/v1/siex/farms?rea=${encodeURIComponent(rea)}&year=${year}`, keys);
  if (res.status !== 200) throw new Error(`farm lookup of ${rea}: ${res.status} ${res.text}`);
  const farm = res.json[0];
  const idcps = (typecrop: string): string[] =>
    farm.agriCrop
      .filter((c: any) => c.crop.typecrop.id === typecrop)
      .flatMap((c: any) => c.agriParcel.flatMap((p: any) => p.sigpac.map((s: any) => String(s.idcp))));
  return { agrifarmId: farm.id, vine: idcps('102'), olive: idcps('101')[0], wheat: idcps('1')[0] };
}
