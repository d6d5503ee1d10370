import { analysisEntry } from '../analysis/kind-entry';
import { fertilizationEntry } from '../fertilization/kind-entry';
import { fertilizationPlanEntry } from '../fertilization-plan/kind-entry';
import { harvestEntry } from '../harvest/kind-entry';
import { irrigationEntry } from '../irrigation/kind-entry';
import { facilityEntry } from '../facility/kind-entry';
import { postHarvestEntry } from '../post-harvest/kind-entry';
import { phytoEntry } from '../phyto/kind-entry';
import { TABLES } from '../store/tables';
import { treatedSeedEntry } from '../treated-seed/kind-entry';

/**
 * Every record kind the gateway takes, one entry a kind (`shared/<kind>/kind-entry.ts`). From this list the core
 * makes each kind's seven operations (routes, contracts, handlers, OpenAPI operations and tags), its table, store, id
 * counter and key index, and its place in the export. The order is the document's and a job's: a job's CUE document
 * has the kinds' sections, and its e-mail counts them, in this order.
 */
export const RECORD_KINDS = [
  phytoEntry,
  fertilizationEntry,
  harvestEntry,
  irrigationEntry,
  analysisEntry,
  fertilizationPlanEntry,
  postHarvestEntry,
  facilityEntry,
  treatedSeedEntry,
] as const;

/**
 * The tables of farms' rows: each kind's, one partition per holding. Every data account holds them, each farm's rows in
 * the account recorded for it (shared/store/farm-accounts.ts); the core's tables are the first account's alone.
 */
export const FARM_TABLES: readonly string[] = RECORD_KINDS.map((k) => k.table);

/** Every table the gateway owns: the core's and each kind's (the nightly backup takes them all, in every account). */
export const GATEWAY_TABLES: readonly string[] = [...Object.values(TABLES), ...FARM_TABLES];

/**
 * The kind every export job held before jobs held several: a job's rows and the command line name its records by id
 * alone, as they always did (shared/export/record-ref.ts).
 */
export const LEGACY_JOB_TYPE: string = phytoEntry.urnType;
