import { OperationId } from '../http/routes';

/** The document's groups, in the order a reader meets them in the README flow; generators name client classes by them. */
export const TAGS = {
  farms: 'The farm campaign, its crop locations (idcp) and when each may be harvested.',
  records:
    'Phytosanitary treatment and fertilization (RD 1051/2022) records: register (treatments one or a batch), list, read, amend, delete, and their history.',
  export: 'Sending records to SIEX as a CUE document, and following the job that does it.',
  catalogue: 'What a registration accepts: products for a crop, official SIEX catalogues, applicator cards.',
} as const;

export type Tag = keyof typeof TAGS;

/** Each operation's group; typed by the operation ids, so a new route without a group does not compile. */
export const OPERATION_TAGS: Record<OperationId, Tag> = {
  farmLookup: 'farms',
  listIdcp: 'farms',
  registerPhytosanitary: 'records',
  registerPhytosanitaryBatch: 'records',
  listPhytosanitary: 'records',
  readPhytosanitary: 'records',
  amendPhytosanitary: 'records',
  deletePhytosanitary: 'records',
  phytosanitaryHistory: 'records',
  registerFertilization: 'records',
  listFertilization: 'records',
  readFertilization: 'records',
  amendFertilization: 'records',
  deleteFertilization: 'records',
  fertilizationHistory: 'records',
  safeHarvest: 'farms',
  exportCue: 'export',
  jobStatus: 'export',
  jobResult: 'export',
  catalogProducts: 'catalogue',
  catalogProduct: 'catalogue',
  siexCatalogue: 'catalogue',
  applicatorCard: 'catalogue',
  // Whether exports can run now: the queues, the settings from Key Vault, SIEX reached.
  health: 'export',
};
