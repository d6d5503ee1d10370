import { settings } from '../config/config';
import { Settings } from '../config/settings';
import { VersionedValue } from '../cache/versioned-value';
import { TtlCache } from '../cache/ttl-cache';
import { ReferenceData, referenceCache } from '../catalog/reference-data';
import { Client, ClientStore } from '../clients/client-store';
import { FarmStore } from '../farms/farm-store';
import { RateLimiter } from '../clients/rate-limit';
import { JobStore } from '../export/job-store';
import { WorkerDeps } from '../export/worker';
import { createMailer } from '../email/mailer';
import { createIuwsClient } from '../siex/iuws-client';
import { PhytoStore } from '../phyto/phyto-store';
import { RecordKeyIndex } from '../phyto/record-key-index';
import { EXPORT_QUEUE, QueueSender } from '../store/queues';
import { Counters, IdBlocks } from '../store/counters';
import { TableStore } from '../store/tables';

/** The long-lived objects of one process, built once from the settings on first use. */
export interface Services {
  settings: Settings;
  tables: TableStore;
  /** Client by SID key, from memory for REFERENCE_CACHE_SECONDS (a storage read per request would double latency). */
  findClient(sidKey: string): Promise<Client | null>;
  limiter: RateLimiter;
  farms: FarmStore;
  reference: VersionedValue<ReferenceData>;
  phyto: PhytoStore;
  /** Keys of farms' records for counting and paging lists; settled ones from memory. */
  recordKeys: RecordKeyIndex;
  /** Record ids, reserved 50 at a time: one counter round trip per 50 registrations. */
  recordIds: IdBlocks;
  jobs: JobStore;
  jobIds: IdBlocks;
  exportQueue: QueueSender;
  /** What the export worker needs; SIEX and e-mail clients are built on first use. */
  worker(): WorkerDeps;
}

/** Records per SIEX submission: few calls per record, and a batch's id list stays within one table property. */
export const EXPORT_BATCH_SIZE = 500;

export function createServices(s: Settings): Services {
  const tables = new TableStore(s);
  const clientStore = new ClientStore(tables);
  const clientCache = new TtlCache<string, Client | null>(
    s.REFERENCE_CACHE_SECONDS * 1000,
    10_000,
    Date.now,
    (c) => c !== null,
  );
  const counters = new Counters(tables);
  const farms = new FarmStore(tables, s.REFERENCE_CACHE_SECONDS);
  const phyto = new PhytoStore(tables);
  const jobs = new JobStore(tables);
  let worker: WorkerDeps | undefined;
  return {
    settings: s,
    tables,
    findClient: (sid) => clientCache.get(sid, () => clientStore.findBySidKey(sid)),
    limiter: new RateLimiter(s.RATE_LIMIT_PER_MINUTE, 60_000),
    farms,
    reference: referenceCache(tables, s.REFERENCE_CACHE_SECONDS),
    phyto,
    recordKeys: new RecordKeyIndex(phyto, s.MAX_BACKDATE_DAYS),
    recordIds: new IdBlocks(counters, 'AgriPhytosanitary', 50),
    jobs,
    jobIds: new IdBlocks(counters, 'JobAsync', 10),
    exportQueue: new QueueSender(s, EXPORT_QUEUE),
    worker: () =>
      (worker ??= {
        jobs,
        phyto,
        farms,
        siex: createIuwsClient(s),
        mailer: createMailer(s),
        batchSize: EXPORT_BATCH_SIZE,
        poll: { firstMs: 100, maxMs: 2000, deadlineMs: 4 * 60_000 },
      }),
  };
}

let current: Services | undefined;

export function services(): Services {
  current ??= createServices(settings());
  return current;
}
