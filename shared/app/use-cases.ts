import type { DateTime } from 'luxon';
import type { IdcpSet, ListIdcpBody } from '../api/farm-schemas';
import type { VersionedValue } from '../cache/versioned-value';
import type { ReferenceData } from '../catalog/reference-data';
import type { Client } from '../clients/client-store';
import type { ExportInput } from '../export/export-service';
import type { ExportResult } from '../export/export-result';
import type { ExportKinds } from '../export/export-kinds';
import type { ExportMessage, JobStore } from '../export/job-store';
import type { Job, JobMeta } from '../export/job';
import type { Logger } from '../log/logger';
import type { WatchStore } from '../export/job-watch';
import type { ExportKeyStore } from '../export/export-keys';
import type { FarmReader } from '../farms/farm-store';
import type { AnswerOf, KindEntry, ViewEntry } from '../records/kind-entry';
import type { NotebookAnswer, NotebookQuery } from '../api/notebook-schemas';
import type { SiexRegister } from '../siex/iuws-register';
import type { IdSource } from '../store/counters';
import type { CropProductsQuery, SiexCatalogueQuery } from '../api/catalog-schemas';
import type { AnswerCache } from '../catalog/answer-cache';
import type { CatalogueAnswer } from '../catalog/catalogue-service';
import type { KindStores } from './kind-parts';
import { factSource } from './fact-source';
import { needing } from './modules';
import { RecordUseCaseParts, RecordUseCases, recordUseCases } from './record-use-cases';
import { KindViewUseCase, kindViewUseCases } from './kind-views';
import { CATALOGUE_DETAILS } from './siex-catalogues';
import type { WebhookSettingsDeps, WebhookSettingsUseCases } from '../notify/webhook-settings';
import { onFirstUse } from '../cache/on-first-use';

/** Every operation the HTTP functions offer, by name: a function file calls one of these and shapes the answer. */
export interface UseCases {
  /** The stored farm lookup answer (JSON text) for a REA and campaign of the caller. */
  farmView(client: Client, rea: string, year: number): Promise<string>;
  cropLocations(client: Client, agrifarmId: string, body: ListIdcpBody): Promise<IdcpSet>;
  /** The seven operations on the records of a kind of the registry (shared/app/record-kinds.ts). */
  records<E extends KindEntry>(kind: E): RecordUseCases<AnswerOf<E>>;
  /** A view of the caller's farm campaign that a kind of the registry brings (its entry's `views`). */
  view(view: ViewEntry): KindViewUseCase;
  /** What SIEX holds of the caller's farm campaign against the records the gateway marks exported. */
  siexNotebook(client: Client, query: NotebookQuery): Promise<NotebookAnswer>;
  /** The job started, its answer rendered once and kept under the Idempotency-Key; the edge makes the status. */
  exportRecords(input: ExportInput): Promise<ExportResult>;
  /** The job's status row; the edge renders it (shared/http/job-answers.ts). */
  jobStatus(client: Client, jobId: number): Promise<JobMeta>;
  /** The settled job, whole; the edge renders its result. */
  jobResult(client: Client, jobId: number): Promise<Job>;
  /** The products a registration for a crop on a day would accept; `rawQuery` as for the record list. */
  cropProducts(rawQuery: Record<string, string>, query: CropProductsQuery): Promise<CatalogueAnswer>;
  /** One product of the register by any spelling of its code. */
  catalogueProduct(code: string): Promise<CatalogueAnswer>;
  /** A SIEX code catalogue by the name the path gives it. */
  siexCatalogue(name: string, rawQuery: Record<string, string>, query: SiexCatalogueQuery): Promise<CatalogueAnswer>;
  /** A ROPO card, by its number and its holder's NIF together. */
  applicatorCard(ropo: string, nif: string): Promise<CatalogueAnswer>;
  /** The caller's webhook: read, set, pinged, its secret rotated, its deliveries listed (shared/notify/webhook-settings.ts). */
  webhook: WebhookSettingsUseCases;
}

/** What the use cases are built from: the stores and caches of one process (shared/app/services.ts). */
export interface UseCaseParts {
  farms: FarmReader;
  reference: VersionedValue<ReferenceData>;
  /** Catalogue answers already rendered, by their ETag. */
  catalogueAnswers: AnswerCache;
  /** Each record kind's store, id counter, key index and batch keys, built on the kind's first use. */
  kinds: KindStores;
  /** The record kinds exports take, their stores and key indexes; built on first use. */
  exportKinds: () => Promise<ExportKinds>;
  jobs: JobStore;
  jobIds: IdSource;
  /** The export jobs that still need the worker, and their leases. */
  watch: WatchStore;
  exportKeys: ExportKeyStore;
  enqueueExport: (message: ExportMessage) => Promise<void>;
  /** The reads of what SIEX holds (exportar, exportarREA), built on first use. */
  siexRegister: () => Promise<SiexRegister>;
  log?: Logger;
  maxBackdateDays: number;
  /** What the webhook operations need, built on their first use. */
  webhookSettings: () => Promise<WebhookSettingsDeps>;
  /** The clock; the real one unless a test sets it. */
  now?: () => DateTime;
}

/**
 * Each use case imports the modules of its operation on its first call (shared/app/modules.ts), so the first request
 * after a cold start starts the modules of its own operation only: a job status never starts the registration rules
 * or the catalogue (docs/architecture.md, "Cold start").
 */
export function createUseCases(p: UseCaseParts): UseCases {
  const judging = {
    farms: p.farms,
    reference: p.reference,
    settings: { MAX_BACKDATE_DAYS: p.maxBackdateDays },
    facts: factSource(p),
    now: p.now,
  };
  const shared: RecordUseCaseParts = {
    farms: p.farms,
    judging,
    kinds: p.kinds,
    jobs: p.jobs,
    deletion: async () => ({ ...(await jobStart(p)), reference: p.reference }),
    now: p.now,
  };
  const kinds = new Map<KindEntry, RecordUseCases>();
  return {
    ...farmUseCases(p),
    records: <E extends KindEntry>(kind: E) => {
      let operations = kinds.get(kind);
      if (!operations) {
        operations = recordUseCases(shared, kind);
        kinds.set(kind, operations);
      }
      // The kind's records are answered as its own answers.
      return operations as RecordUseCases<AnswerOf<E>>;
    },
    view: viewUseCase(p),
    ...exportUseCases(p),
    ...catalogueUseCases(p),
    webhook: webhookUseCases(p),
  };
}

/** Each view a kind brings, its use case made once, on its first call. */
function viewUseCase(p: UseCaseParts): (view: ViewEntry) => KindViewUseCase {
  const of = kindViewUseCases(p);
  const made = new Map<ViewEntry, KindViewUseCase>();
  return (view) => {
    let useCase = made.get(view);
    if (!useCase) made.set(view, (useCase = of(view)));
    return useCase;
  };
}

/** The caller's webhook operations, their module and stores loaded on the first call of any of them. */
function webhookUseCases(p: UseCaseParts): WebhookSettingsUseCases {
  const ops = onFirstUse(async () =>
    (await import('../notify/webhook-settings')).webhookSettings(await p.webhookSettings()),
  );
  return {
    read: async (client) => (await ops()).read(client),
    set: async (client, change) => (await ops()).set(client, change),
    rotate: async (client, overlapHours) => (await ops()).rotate(client, overlapHours),
    ping: async (client) => (await ops()).ping(client),
    deliveries: async (client, limit) => (await ops()).deliveries(client, limit),
  };
}

/** The farm lookup and the crop locations' identifiers. */
function farmUseCases(p: UseCaseParts): Pick<UseCases, 'farmView' | 'cropLocations'> {
  return {
    farmView: needing(['farms'], ({ farms }, client: Client, rea: string, year: number) =>
      farms.findFarmView(p.farms, client, rea, year),
    ),
    cropLocations: needing(['farms'], async ({ farms }, client: Client, agrifarmId: string, body: ListIdcpBody) =>
      farms.resolveIdcps(await farms.accessibleFarm(p.farms, client, agrifarmId), agrifarmId, body),
    ),
  };
}

/** What starting a job takes, an export's or a deletion's. */
async function jobStart(p: UseCaseParts) {
  return {
    farms: p.farms,
    kinds: await p.exportKinds(),
    jobs: p.jobs,
    jobIds: p.jobIds,
    watch: p.watch,
    enqueue: p.enqueueExport,
    log: p.log,
    now: p.now,
    startAnswer: (await import('../http/job-answers')).startAnswer,
  };
}

/** The export to SIEX and its job's status and result. */
function exportUseCases(p: UseCaseParts): Pick<UseCases, 'exportRecords' | 'jobStatus' | 'jobResult' | 'siexNotebook'> {
  return {
    siexNotebook: needing(['farms', 'notebook'], async ({ farms, notebook }, client: Client, query: NotebookQuery) => {
      const farm = await farms.accessibleFarm(p.farms, client, query.agrifarmId);
      const [kinds, register] = await Promise.all([p.exportKinds(), p.siexRegister()]);
      return notebook.farmNotebook({ kinds, register }, farm, query.agrifarmId);
    }),
    exportRecords: needing(['exports'], async ({ exports }, input: ExportInput) =>
      exports.exportRecords({ ...(await jobStart(p)), keys: p.exportKeys }, input),
    ),
    jobStatus: needing(['jobs'], ({ jobs }, client: Client, jobId: number) => jobs.ownJobMeta(p.jobs, client, jobId)),
    jobResult: needing(['jobs'], ({ jobs }, client: Client, jobId: number) => jobs.settledJob(p.jobs, client, jobId)),
  };
}

/** The official catalogues: the products register, SIEX's code lists, ROPO cards. */
function catalogueUseCases(
  p: UseCaseParts,
): Pick<UseCases, 'cropProducts' | 'catalogueProduct' | 'siexCatalogue' | 'applicatorCard'> {
  const of = { reference: p.reference, answers: p.catalogueAnswers, details: CATALOGUE_DETAILS, now: p.now };
  return {
    cropProducts: needing(['catalogue'], ({ catalogue }, rawQuery: Record<string, string>, query: CropProductsQuery) =>
      catalogue.cropProducts(of, rawQuery, query),
    ),
    catalogueProduct: needing(['catalogue'], ({ catalogue }, code: string) => catalogue.catalogueProduct(of, code)),
    siexCatalogue: needing(
      ['catalogue'],
      ({ catalogue }, name: string, rawQuery: Record<string, string>, query: SiexCatalogueQuery) =>
        catalogue.siexCatalogue(of, name, rawQuery, query),
    ),
    applicatorCard: needing(['catalogue'], ({ catalogue }, ropo: string, nif: string) =>
      catalogue.applicatorCard(of, ropo, nif),
    ),
  };
}
