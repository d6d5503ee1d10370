import { DateTime } from 'luxon';
import { JobResultView, JobView } from '../api/export-schemas';
import { IdcpSet, ListIdcpBody } from '../api/farm-schemas';
import { VersionedValue } from '../cache/versioned-value';
import { ReferenceData } from '../catalog/reference-data';
import { Client } from '../clients/client-store';
import { exportRecords, ExportInput } from '../export/export-service';
import { jobResult, jobView, ownJobMeta } from '../export/job-views';
import { JobStore } from '../export/job-store';
import { WatchStore } from '../export/job-watch';
import { ExportKeyStore } from '../export/export-keys';
import { accessibleFarm, findFarmView, resolveIdcps } from '../farms/farm-service';
import { FarmReader } from '../farms/farm-store';
import { ListFilters, ListPage, listRecords } from '../phyto/list-service';
import { PhytoStore } from '../phyto/phyto-store';
import { RecordKeyIndex } from '../phyto/record-key-index';
import { registerApplication, RegisterInput } from '../phyto/register-service';
import { BatchInput, BatchItemOutcome, registerBatch } from '../phyto/batch-register';
import { BatchKeyStore } from '../phyto/batch-keys';
import { amendApplication, AmendInput, ChangeInput, recordNotFound } from '../phyto/amend-service';
import { deleteRecord, jobHolding } from '../export/deletion-service';
import { RecordVersion } from '../api/history-schemas';
import { IdSource } from '../store/counters';
import { CropProductsQuery, SiexCatalogueQuery } from '../api/catalog-schemas';
import {
  AnswerCache,
  applicatorCard,
  CatalogueAnswer,
  catalogueProduct,
  cropProducts,
  siexCatalogue,
} from '../catalog/catalogue-service';

/** A reply rendered once and stored with its Idempotency-Key, so a retry gets exactly the same text. */
interface RenderedReply {
  status: number;
  body: string;
  /** The record's ETag, for answers that carry a record. */
  etag?: string;
}

/** Every operation the HTTP functions offer, by name: a function file calls one of these and shapes the answer. */
export interface UseCases {
  /** The stored farm lookup answer (JSON text) for a REA and campaign of the caller. */
  farmView(client: Client, rea: string, year: number): Promise<string>;
  cropLocations(client: Client, agrifarmId: string, body: ListIdcpBody): Promise<IdcpSet>;
  registerApplication(input: RegisterInput): Promise<RenderedReply>;
  /** Each item registered as if alone, in order; the edge renders the outcomes. */
  registerBatch(input: BatchInput): Promise<BatchItemOutcome[]>;
  amendApplication(input: AmendInput): Promise<RenderedReply>;
  /** 204 with no body, or 202 with the job that deletes the record in SIEX. */
  deleteApplication(input: ChangeInput): Promise<RenderedReply>;
  applicationHistory(client: Client, agrifarmId: string, recordId: number): Promise<RecordVersion[]>;
  /** `rawQuery` is the query string as sent, for the rules a schema cannot state (a misspelt `page-size`). */
  listApplications(
    client: Client,
    agrifarmId: string,
    rawQuery: Record<string, string>,
    filters: ListFilters,
  ): Promise<ListPage>;
  exportRecords(input: ExportInput): Promise<RenderedReply>;
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
  /** The Idempotency-Keys of registration batches. */
  batchKeys: BatchKeyStore;
  jobs: JobStore;
  jobIds: IdSource;
  /** The export jobs that still need the worker, and their leases. */
  watch: WatchStore;
  exportKeys: ExportKeyStore;
  enqueueExport: (message: { jobId: number }) => Promise<void>;
  maxBackdateDays: number;
  /** The clock; the real one unless a test sets it. */
  now?: () => DateTime;
}

export function createUseCases(p: UseCaseParts): UseCases {
  const catalogue = { reference: p.reference, answers: p.catalogueAnswers, now: p.now };
  const registration = {
    farms: p.farms,
    reference: p.reference,
    store: p.phyto,
    ids: p.recordIds,
    maxBackdateDays: p.maxBackdateDays,
    now: p.now,
  };
  return {
    farmView: (client, rea, year) => findFarmView(p.farms, client, rea, year),
    cropLocations: async (client, agrifarmId, body) =>
      resolveIdcps(await accessibleFarm(p.farms, client, agrifarmId), agrifarmId, body),
    registerApplication: (input) => registerApplication(registration, input),
    registerBatch: (input) => registerBatch({ ...registration, batchKeys: p.batchKeys }, input),
    amendApplication: (input) =>
      amendApplication(
        {
          farms: p.farms,
          reference: p.reference,
          store: p.phyto,
          heldByJob: jobHolding(p.jobs, p.now),
          maxBackdateDays: p.maxBackdateDays,
          now: p.now,
        },
        input,
      ),
    deleteApplication: (input) =>
      deleteRecord(
        {
          farms: p.farms,
          phyto: p.phyto,
          recordKeys: p.recordKeys,
          jobs: p.jobs,
          jobIds: p.jobIds,
          watch: p.watch,
          enqueue: p.enqueueExport,
          now: p.now,
        },
        input,
      ),
    applicationHistory: async (client, agrifarmId, recordId) => {
      const farm = await accessibleFarm(p.farms, client, agrifarmId);
      const versions = await p.phyto.readHistory(farm.meta, recordId);
      if (!versions) throw recordNotFound(recordId);
      return versions;
    },
    listApplications: async (client, agrifarmId, rawQuery, filters) => {
      const farm = await accessibleFarm(p.farms, client, agrifarmId);
      return listRecords(p.phyto, p.recordKeys, farm.meta, rawQuery, filters);
    },
    exportRecords: (input) =>
      exportRecords(
        {
          farms: p.farms,
          phyto: p.phyto,
          recordKeys: p.recordKeys,
          jobs: p.jobs,
          jobIds: p.jobIds,
          keys: p.exportKeys,
          watch: p.watch,
          enqueue: p.enqueueExport,
          now: p.now,
        },
        input,
      ),
    jobStatus: async (client, jobId) => jobView(await ownJobMeta(p.jobs, client, jobId)),
    jobResult: (client, jobId) => jobResult(p.jobs, client, jobId),
    cropProducts: (rawQuery, query) => cropProducts(catalogue, rawQuery, query),
    catalogueProduct: (code) => catalogueProduct(catalogue, code),
    siexCatalogue: (name, rawQuery, query) => siexCatalogue(catalogue, name, rawQuery, query),
    applicatorCard: (ropo, nif) => applicatorCard(catalogue, ropo, nif),
  };
}
