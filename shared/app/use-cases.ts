import type { DateTime } from 'luxon';
import type { JobResultView, JobView } from '../api/export-schemas';
import type { IdcpSet, ListIdcpBody } from '../api/farm-schemas';
import type { VersionedValue } from '../cache/versioned-value';
import type { ReferenceData } from '../catalog/reference-data';
import type { Client } from '../clients/client-store';
import type { ExportInput } from '../export/export-service';
import type { ExportResult } from '../export/export-result';
import type { ExportKinds } from '../export/export-kinds';
import type { ExportMessage, JobStore } from '../export/job-store';
import type { Logger } from '../log/logger';
import type { WatchStore } from '../export/job-watch';
import type { ExportKeyStore } from '../export/export-keys';
import type { FarmReader } from '../farms/farm-store';
import type { ListFilters } from '../phyto/list-filters';
import type { PhytoStore } from '../phyto/phyto-store';
import type { PhytoRecordView } from '../api/phyto-schemas';
import type { RecordKeyIndex } from '../records/record-key-index';
import type { RegisterInput } from '../records/register-record';
import type { BatchInput, BatchItemOutcome } from '../phyto/batch-register';
import type { BatchKeyStore } from '../phyto/batch-keys';
import type { AmendInput } from '../records/amend-record';
import type { ChangeInput } from '../records/changeable-record';
import type { ListPage } from '../records/list-records';
import type { RecordResult } from '../records/record-result';
import type { SafeHarvest, SafeHarvestQuery } from '../api/harvest-schemas';
import type { RecordVersion } from '../api/history-schemas';
import type { IdSource } from '../store/counters';
import type { CropProductsQuery, SiexCatalogueQuery } from '../api/catalog-schemas';
import type { AnswerCache } from '../catalog/answer-cache';
import type { CatalogueAnswer } from '../catalog/catalogue-service';
import type { FertilizeRecordView } from '../api/fertilization-schemas';
import type { FertilizationStore } from '../fertilization/fertilization-store';
import type { ExportKind } from '../export/export-kinds';
import type { FertilizationListFilters } from '../fertilization/list-filters';
import { RecordUseCaseParts, recordUseCases } from './record-use-cases';
import { CATALOGUE_DETAILS } from './siex-catalogues';

/** Every operation the HTTP functions offer, by name: a function file calls one of these and shapes the answer. */
export interface UseCases {
  /** The stored farm lookup answer (JSON text) for a REA and campaign of the caller. */
  farmView(client: Client, rea: string, year: number): Promise<string>;
  cropLocations(client: Client, agrifarmId: string, body: ListIdcpBody): Promise<IdcpSet>;
  registerApplication(input: RegisterInput): Promise<RecordResult>;
  /** Each item registered as if alone, in order; the edge renders the outcomes. */
  registerBatch(input: BatchInput): Promise<BatchItemOutcome[]>;
  amendApplication(input: AmendInput): Promise<RecordResult>;
  /** One record of the caller's farm campaign, with its version. */
  readApplication(client: Client, agrifarmId: string, recordId: number): Promise<RecordResult>;
  /** Deleted at once, or a job started that deletes the record in SIEX first. */
  deleteApplication(input: ChangeInput): Promise<RecordResult>;
  applicationHistory(client: Client, agrifarmId: string, recordId: number): Promise<RecordVersion[]>;
  /** `rawQuery` is the query string as sent, for the rules a schema cannot state (a misspelt `page-size`). */
  listApplications(
    client: Client,
    agrifarmId: string,
    rawQuery: Record<string, string>,
    filters: ListFilters,
  ): Promise<ListPage<PhytoRecordView>>;
  /** The fertilization record's operations, as the treatments' on the records core (RD 1051/2022). */
  registerFertilization(input: RegisterInput): Promise<RecordResult>;
  amendFertilization(input: AmendInput): Promise<RecordResult>;
  readFertilization(client: Client, agrifarmId: string, recordId: number): Promise<RecordResult>;
  deleteFertilization(input: ChangeInput): Promise<RecordResult>;
  fertilizationHistory(client: Client, agrifarmId: string, recordId: number): Promise<RecordVersion[]>;
  listFertilizations(
    client: Client,
    agrifarmId: string,
    rawQuery: Record<string, string>,
    filters: FertilizationListFilters,
  ): Promise<ListPage<FertilizeRecordView>>;
  /** When each crop location of the caller's farm campaign may be harvested, on a day (default today in Madrid). */
  safeHarvest(client: Client, query: SafeHarvestQuery): Promise<SafeHarvest[]>;
  /** The job started, its answer rendered once and kept under the Idempotency-Key; the edge makes the status. */
  exportRecords(input: ExportInput): Promise<ExportResult>;
  jobStatus(client: Client, jobId: number): Promise<JobView>;
  jobResult(client: Client, jobId: number): Promise<JobResultView>;
  /** The products a registration for a crop on a day would accept; `rawQuery` as for the record list. */
  cropProducts(rawQuery: Record<string, string>, query: CropProductsQuery): Promise<CatalogueAnswer>;
  /** One product of the register by any spelling of its code. */
  catalogueProduct(code: string): Promise<CatalogueAnswer>;
  /** A SIEX code catalogue by the name the path gives it. */
  siexCatalogue(name: string, rawQuery: Record<string, string>, query: SiexCatalogueQuery): Promise<CatalogueAnswer>;
  /** A ROPO card, by its number and its holder's NIF together. */
  applicatorCard(ropo: string, nif: string): Promise<CatalogueAnswer>;
}

/** What the use cases are built from: the stores and caches of one process (shared/app/services.ts). */
export interface UseCaseParts {
  farms: FarmReader;
  reference: VersionedValue<ReferenceData>;
  /** Catalogue answers already rendered, by their ETag. */
  catalogueAnswers: AnswerCache;
  phyto: PhytoStore;
  recordKeys: RecordKeyIndex;
  recordIds: IdSource;
  /** The record kinds exports take (treatments, fertilizations), their stores and key indexes; built on first use. */
  exportKinds: () => Promise<ExportKinds>;
  /** The Idempotency-Keys of registration batches. */
  batchKeys: BatchKeyStore;
  fertilization: FertilizationStore;
  jobs: JobStore;
  jobIds: IdSource;
  /** The export jobs that still need the worker, and their leases. */
  watch: WatchStore;
  exportKeys: ExportKeyStore;
  enqueueExport: (message: ExportMessage) => Promise<void>;
  log?: Logger;
  maxBackdateDays: number;
  /** The clock; the real one unless a test sets it. */
  now?: () => DateTime;
}

/**
 * Each use case imports its service's module on its first call (an import is done once and kept), so the first
 * request after a cold start starts the modules of its own operation only: a job status never starts the
 * registration rules or the catalogue (docs/architecture.md, "Cold start").
 */
export function createUseCases(p: UseCaseParts): UseCases {
  const judging = {
    farms: p.farms,
    reference: p.reference,
    settings: { MAX_BACKDATE_DAYS: p.maxBackdateDays },
    now: p.now,
  };
  const shared: RecordUseCaseParts = {
    farms: p.farms,
    judging,
    jobs: p.jobs,
    deletion: async () => ({ ...(await jobStart(p)), reference: p.reference }),
    now: p.now,
  };
  const treatments = treatmentUseCases(p, shared);
  const fertilizations = fertilizationUseCases(p, shared);
  return {
    ...farmUseCases(p),
    registerApplication: treatments.register,
    registerBatch: async (input) => {
      const [{ registerBatch }, { phytoKind }] = await Promise.all([
        import('../phyto/batch-register'),
        import('../phyto/phyto-kind'),
      ]);
      return registerBatch(
        { ...judging, kind: phytoKind, store: p.phyto, ids: p.recordIds, batchKeys: p.batchKeys },
        input,
      );
    },
    amendApplication: treatments.amend,
    deleteApplication: treatments.delete,
    readApplication: treatments.read,
    applicationHistory: treatments.history,
    listApplications: treatments.list,
    registerFertilization: fertilizations.register,
    amendFertilization: fertilizations.amend,
    deleteFertilization: fertilizations.delete,
    readFertilization: fertilizations.read,
    fertilizationHistory: fertilizations.history,
    listFertilizations: fertilizations.list,
    safeHarvest: safeHarvestUseCase(p),
    ...exportUseCases(p),
    ...catalogueUseCases(p),
  };
}

/** The farm lookup and the crop locations' identifiers. */
function farmUseCases(p: UseCaseParts): Pick<UseCases, 'farmView' | 'cropLocations'> {
  return {
    farmView: async (client, rea, year) =>
      (await import('../farms/farm-service')).findFarmView(p.farms, client, rea, year),
    cropLocations: async (client, agrifarmId, body) => {
      const { accessibleFarm, resolveIdcps } = await import('../farms/farm-service');
      return resolveIdcps(await accessibleFarm(p.farms, client, agrifarmId), agrifarmId, body);
    },
  };
}

/** The phytosanitary treatments on the records core (RD 1311/2012). */
function treatmentUseCases(p: UseCaseParts, shared: RecordUseCaseParts) {
  return recordUseCases(shared, {
    kind: async () => (await import('../phyto/phyto-kind')).phytoKind,
    answer: async () => (await import('../phyto/record-answer')).recordAnswer,
    store: p.phyto,
    ids: () => Promise.resolve(p.recordIds),
    keys: () => Promise.resolve(p.recordKeys),
    listFilter: async (filters: ListFilters) => (await import('../phyto/list-filters')).treatmentListFilter(filters),
  });
}

/** The fertilizations on the records core (RD 1051/2022); their id counter and key index are the export registry's. */
function fertilizationUseCases(p: UseCaseParts, shared: RecordUseCaseParts) {
  const entry = async (): Promise<ExportKind> => (await p.exportKinds()).of('AgriFertilize');
  return recordUseCases(shared, {
    kind: async () => (await import('../fertilization/fertilization-kind')).fertilizationKind,
    answer: async () => (await import('../fertilization/record-answer')).fertilizationAnswer,
    store: p.fertilization,
    ids: async () => (await entry()).ids,
    keys: async () => (await entry()).keys,
    listFilter: async (filters: FertilizationListFilters) =>
      (await import('../fertilization/list-filters')).fertilizationListFilter(filters),
  });
}

function safeHarvestUseCase(p: UseCaseParts): UseCases['safeHarvest'] {
  return async (client, query) => {
    const [{ accessibleFarm }, { harvestDay, safeHarvest }, { DateTime }] = await Promise.all([
      import('../farms/farm-service'),
      import('../phyto/safe-harvest'),
      import('luxon'),
    ]);
    const farm = await accessibleFarm(p.farms, client, query.agrifarmId);
    const day = harvestDay(query.date, (p.now ?? (() => DateTime.now()))());
    const stored = await p.phyto.readRecordsIn(farm.meta, undefined, undefined);
    return safeHarvest(
      stored.map((s) => s.record),
      farm,
      day,
    );
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
  };
}

/** The export to SIEX and its job's status and result. */
function exportUseCases(p: UseCaseParts): Pick<UseCases, 'exportRecords' | 'jobStatus' | 'jobResult'> {
  return {
    exportRecords: async (input) =>
      (await import('../export/export-service')).exportRecords({ ...(await jobStart(p)), keys: p.exportKeys }, input),
    jobStatus: async (client, jobId) => {
      const { jobView, ownJobMeta } = await import('../export/job-views');
      return jobView(await ownJobMeta(p.jobs, client, jobId));
    },
    jobResult: async (client, jobId) => (await import('../export/job-views')).jobResult(p.jobs, client, jobId),
  };
}

/** The official catalogues: the products register, SIEX's code lists, ROPO cards. */
function catalogueUseCases(
  p: UseCaseParts,
): Pick<UseCases, 'cropProducts' | 'catalogueProduct' | 'siexCatalogue' | 'applicatorCard'> {
  const catalogue = { reference: p.reference, answers: p.catalogueAnswers, details: CATALOGUE_DETAILS, now: p.now };
  return {
    cropProducts: async (rawQuery, query) =>
      (await import('../catalog/catalogue-service')).cropProducts(catalogue, rawQuery, query),
    catalogueProduct: async (code) => (await import('../catalog/catalogue-service')).catalogueProduct(catalogue, code),
    siexCatalogue: async (name, rawQuery, query) =>
      (await import('../catalog/catalogue-service')).siexCatalogue(catalogue, name, rawQuery, query),
    applicatorCard: async (ropo, nif) =>
      (await import('../catalog/catalogue-service')).applicatorCard(catalogue, ropo, nif),
  };
}
