import { settings } from '../config/config';
import { Settings } from '../config/settings';
import { TtlCache } from '../cache/ttl-cache';
import { VersionWatch } from '../cache/version-watch';
import { readDirectoryVersion } from '../catalog/catalog-version';
import { referenceCache } from '../catalog/reference-data';
import { answerCache } from '../catalog/answer-cache';
import { CATALOGUES } from './siex-catalogues';
import { Client, ClientStore } from '../clients/client-store';
import { FarmStore } from '../farms/farm-store';
import { RateLimiter } from '../clients/rate-limit';
import { Admission } from '../http/admission';
import { ExportMessage, JobStore } from '../export/job-store';
import { WatchStore } from '../export/job-watch';
import { ExportKeyStore } from '../export/export-keys';
import { OperationKeyStore } from '../idempotency/key-operations';
import type { WorkerDeps } from '../export/worker';
import type { SweepDeps } from '../export/sweeper';
import type { Gate } from '../http/endpoint';
import { EXPORT_QUEUE, QueueSender, WEBHOOK_POISON_QUEUE, WEBHOOK_QUEUE } from '../store/queues';
import type { DeliveryDeps, redrivePoisoned, WebhookMessage } from '../notify/webhook-delivery';
import type { WebhookSettingsDeps } from '../notify/webhook-settings';
import { onFirstUse } from '../cache/on-first-use';
import { Counters, IdBlocks } from '../store/counters';
import { TABLES, TableStore } from '../store/tables';
import { Clock, systemClock } from '../time/clock';
import { dateTimeNow } from '../time/date-time';
import { consoleSink, createLogger, Logger } from '../log/logger';
import { createUseCases, UseCaseParts, UseCases } from './use-cases';
import type { ExportKinds } from '../export/export-kinds';
import type { SiexRegister } from '../siex/iuws-register';
import { KindStores } from './kind-parts';
import { FARM_TABLES, GATEWAY_TABLES, LEGACY_JOB_TYPE } from './record-kinds';

/**
 * The long-lived objects of one process, built once from the settings on first use: the stores and caches, the
 * request pipeline's gate, the use cases the HTTP functions call, and what the export worker needs.
 */
export interface Services extends UseCaseParts {
  settings: Settings;
  tables: TableStore;
  /** Every table the gateway owns, the core's and each record kind's: what the nightly backup takes. */
  tableNames: readonly string[];
  /** Those of them every data account holds: the record kinds' (each farm's rows in its account). */
  farmTables: readonly string[];
  farms: FarmStore;
  jobIds: IdBlocks;
  gate: Gate;
  useCases: UseCases;
  /** The one logger: each invocation opens its scope (its log, the correlation id) at its edge. */
  log: Logger;
  /** What the export worker needs; the SIEX and e-mail clients, and their modules, start on its first use. */
  worker(): Promise<WorkerDeps>;
  /** What the export sweeper needs. */
  sweeper(): SweepDeps;
  /** What the webhook delivery function needs; refused while the gateway has no signing key (nothing unsigned goes). */
  deliveries(): Promise<DeliveryDeps>;
  /** What the sweeper needs to put the poisoned webhook deliveries back on their queue. */
  redrive(): Parameters<typeof redrivePoisoned>[0];
  /**
   * Reads the directory's version ahead of the first request (the warm-up, functions/handlers.ts): the storage
   * connection opens and the table SDK's request path runs once. Nothing with REFERENCE_CACHE_SECONDS 0 (no directory).
   */
  connect(): Promise<void>;
}

/** Records per SIEX submission: few calls per record, and a batch's id list stays within one table property. */
const EXPORT_BATCH_SIZE = 500;

/**
 * How often a process asks whether the back office changed clients or farms: a client or farm it adds is served
 * within this time, although unknown keys and farm ids are remembered as long as known ones.
 */
export const DIRECTORY_CHECK_MS = 1000;

/**
 * `clock` drives the export's leases, heartbeats, sweeps and SIEX polling (tests pass one they move themselves); `log`
 * takes every structured event (shared/log), by default to the invocation whose scope is open.
 */
export function createServices(
  s: Settings,
  clock: Clock = systemClock,
  log: Logger = createLogger(consoleSink),
): Services {
  const tables = new TableStore(s);
  // Nothing is cached with a period of 0, so there is nothing to watch either.
  const directory =
    s.REFERENCE_CACHE_SECONDS > 0
      ? new VersionWatch(async () => readDirectoryVersion(await tables.table(TABLES.catalog)), DIRECTORY_CHECK_MS)
      : undefined;
  const counters = new Counters(tables);
  const exportQueue = new QueueSender(s, EXPORT_QUEUE);
  const webhookQueue = new QueueSender(s, WEBHOOK_QUEUE);
  const webhookPoison = new QueueSender(s, WEBHOOK_POISON_QUEUE);
  const clientStore = new ClientStore(tables);
  const reference = referenceCache(tables, s.REFERENCE_CACHE_SECONDS, CATALOGUES);
  const kinds = new KindStores({ tables, counters, maxBackdateDays: s.MAX_BACKDATE_DAYS });
  const webhooks = webhookStores(tables);
  let exporting: Promise<ExportKinds> | undefined;
  // Built on first use: the kinds' rules and CUE mappings are modules a cold start of another operation need not load.
  const exportKinds = () =>
    (exporting ??= import('./export-registry').then((registry) => registry.exportKinds(kinds, reference)));
  const parts = {
    farms: new FarmStore(tables, s.REFERENCE_CACHE_SECONDS, directory),
    reference,
    catalogueAnswers: answerCache(),
    kinds,
    exportKinds,
    jobs: new JobStore(tables, LEGACY_JOB_TYPE),
    jobIds: new IdBlocks(counters, 'JobAsync', 10),
    watch: new WatchStore(tables, () => exportQueue.url),
    exportKeys: new ExportKeyStore(tables),
    enqueueExport: (m: ExportMessage) => exportQueue.send(m),
    siexRegister: siexRegisterOf(s, exportKinds),
    maxBackdateDays: s.MAX_BACKDATE_DAYS,
    webhookSettings: webhookSettingsDeps(s, webhooks, clock),
    log,
    now: () => dateTimeNow(clock),
  };
  return {
    ...parts,
    settings: s,
    tables,
    tableNames: GATEWAY_TABLES,
    farmTables: FARM_TABLES,
    log,
    gate: clientGate(s, tables, directory, clock),
    useCases: createUseCases(parts),
    sweeper: () => ({ watch: parts.watch, jobs: parts.jobs, enqueue: parts.enqueueExport, now: () => clock.now() }),
    worker: workerDeps(s, { ...parts, clientStore, webhookQueue, webhooks }, clock, log),
    deliveries: deliveryDeps(s, { tables, queue: webhookQueue, webhooks }, clock, log),
    redrive: () => ({
      poison: webhookPoison,
      queue: { send: (m, delayMs) => webhookQueue.send(m, delayMs) },
      now: () => clock.now(),
      log,
    }),
    connect: async () => directory?.check(),
  };
}

/**
 * Who is calling, and how fast. Clients come from memory for REFERENCE_CACHE_SECONDS: a storage read per request
 * would double latency. Unknown SID keys too: the same time for both, and no storage read per guessed key.
 */
function clientGate(s: Settings, tables: TableStore, directory: VersionWatch | undefined, clock: Clock): Gate {
  const clientStore = new ClientStore(tables);
  const clientCache = new TtlCache<string, Client | null>(s.REFERENCE_CACHE_SECONDS * 1000, 10_000);
  directory?.onChange(() => clientCache.clear());
  return {
    settings: s,
    findClient: async (sid) => {
      await directory?.check();
      return clientCache.get(sid, () => clientStore.findBySidKey(sid));
    },
    limiter: new RateLimiter(s.RATE_LIMIT_PER_MINUTE, 60_000),
    admission: new Admission(s.MAX_CONCURRENT_REQUESTS, s.ADMISSION_WAIT_MS, clock),
    keys: new OperationKeyStore(tables),
  };
}

/** The export worker's parts, built once on its first use: only the worker starts the SIEX and e-mail clients. */
function workerDeps(
  s: Settings,
  parts: UseCaseParts & {
    farms: FarmStore;
    clientStore: ClientStore;
    webhookQueue: QueueSender;
    webhooks: () => Promise<WebhookStores>;
  },
  clock: Clock,
  log: Logger,
): () => Promise<WorkerDeps> {
  let worker: Promise<WorkerDeps> | undefined;
  const build = async (): Promise<WorkerDeps> => {
    const [{ createIuwsClient }, { createMailer }, { recipientsAmong }] = await Promise.all([
      import('../siex/iuws-client'),
      import('../email/mailer'),
      import('../notify/webhook-delivery'),
    ]);
    const kinds = await parts.exportKinds();
    return {
      jobs: parts.jobs,
      watch: parts.watch,
      kinds,
      farms: parts.farms,
      // SIEX's verdicts are read by the IdAjena field of each kind's section.
      siex: createIuwsClient(
        s,
        kinds.all().map((k) => k.cue),
      ),
      mailer: createMailer(s),
      ...(s.WEBHOOK_SIGNING_KEY
        ? {
            webhooks: {
              recipients: async (rea: string) =>
                recipientsAmong(
                  await parts.clientStore.clientsOfFarm(rea, () => dateTimeNow(clock)),
                  (await parts.webhooks()).subscriptions,
                ),
              send: (m: WebhookMessage) => parts.webhookQueue.send(m),
            },
          }
        : {}),
      batchSize: EXPORT_BATCH_SIZE,
      poll: { firstMs: 100, maxMs: 2000, deadlineMs: 4 * 60_000 },
      clock,
      log,
    };
  };
  return () => (worker ??= build());
}

/**
 * The webhook delivery function's parts, built once: the sender, and each client's delivery slots, in a table every
 * instance shares. http to loopback only with AUTH_MODE=local (the local stack's receiver).
 */
function deliveryDeps(
  s: Settings,
  parts: { tables: TableStore; queue: QueueSender; webhooks: () => Promise<WebhookStores> },
  clock: Clock,
  log: Logger,
): () => Promise<DeliveryDeps> {
  let deliveries: Promise<DeliveryDeps> | undefined;
  const build = async (): Promise<DeliveryDeps> => {
    const key = s.WEBHOOK_SIGNING_KEY;
    if (!key) throw new Error('WEBHOOK_SIGNING_KEY is not set: a webhook delivery cannot be signed');
    const [{ createWebhookSender }, { TableSlots }, stores] = await Promise.all([
      import('../notify/webhook-sender'),
      import('../notify/slot-store'),
      parts.webhooks(),
    ]);
    return {
      sender: createWebhookSender(key, { allowLoopbackHttp: s.AUTH_MODE === 'local' }),
      queue: { send: (m, delayMs) => parts.queue.send(m, delayMs) },
      slots: new TableSlots(parts.tables, () => clock.now()),
      now: () => clock.now(),
      log,
      ...stores,
    };
  };
  return () =>
    (deliveries ??= build().catch((e: unknown) => {
      deliveries = undefined;
      throw e;
    }));
}

/** The reads of what SIEX holds, built once on first use: the IUWS session starts only when a read is asked for. */
function siexRegisterOf(s: Settings, exportKinds: () => Promise<ExportKinds>): () => Promise<SiexRegister> {
  return onFirstUse(async () => {
    const [{ createIuwsRegister }, kinds] = await Promise.all([import('../siex/iuws-register'), exportKinds()]);
    // Each block SIEX answers is named by the IdAjena field of its section's kind.
    return createIuwsRegister(
      s,
      kinds.all().map((k) => k.cue),
    );
  });
}

/** Each client's own webhook settings and its deliveries' journal, built on first use. */
type WebhookStores = Pick<WebhookSettingsDeps, 'subscriptions' | 'journal'>;

function webhookStores(tables: TableStore): () => Promise<WebhookStores> {
  return onFirstUse(async () => {
    const [{ SubscriptionStore }, { DeliveryLog }] = await Promise.all([
      import('../notify/subscription-store'),
      import('../notify/delivery-log'),
    ]);
    return { subscriptions: new SubscriptionStore(tables), journal: new DeliveryLog(tables) };
  });
}

/** What the /v1/webhooks operations need: the stores, and the sender for a ping (http to loopback only locally). */
function webhookSettingsDeps(
  s: Settings,
  stores: () => Promise<WebhookStores>,
  clock: Clock,
): () => Promise<WebhookSettingsDeps> {
  const policy = { allowLoopbackHttp: s.AUTH_MODE === 'local' };
  const sender = onFirstUse(async () => {
    const { createWebhookSender } = await import('../notify/webhook-sender');
    return createWebhookSender(s.WEBHOOK_SIGNING_KEY ?? '', policy);
  });
  return onFirstUse(async () => ({
    ...(await stores()),
    signingKey: s.WEBHOOK_SIGNING_KEY,
    sender,
    policy,
    now: () => clock.now(),
  }));
}

let current: Services | undefined;

/** The process's services, built from its settings on first use. */
export function processApp(): Services {
  current ??= createServices(settings());
  return current;
}
