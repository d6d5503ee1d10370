import { RECORDS_TAG } from '../app/record-kinds';
import { KIND_OPERATION_IDS, OperationId, RecordKindOperationId } from '../app/routes';

/** The document's groups, in the order a reader meets them in the README flow; generators name client classes by them. */
export const TAGS = {
  farms:
    'The farm campaign, its crop locations (idcp), when each may be harvested and its fertilization plan against its fertilizations.',
  records: RECORDS_TAG,
  export: 'Sending records to SIEX as a CUE document, and following the job that does it.',
  catalogue: 'What a registration accepts: products for a crop, official SIEX catalogues, applicator cards.',
  webhooks:
    "The caller's webhook: where its job events are POSTed and which, a signed ping to try it, its secret rotated with an overlap, its last deliveries.",
} as const;

export type Tag = keyof typeof TAGS;

/** Every record kind's operations are its records'. */
const KIND_TAGS = Object.fromEntries(KIND_OPERATION_IDS.map((id) => [id, 'records'])) as Record<
  RecordKindOperationId,
  Tag
>;

/** Each operation's group; typed by the operation ids, so a new route without a group does not compile. */
export const OPERATION_TAGS: Record<OperationId, Tag> = {
  farmLookup: 'farms',
  listIdcp: 'farms',
  ...KIND_TAGS,
  safeHarvest: 'farms',
  nutrientBalance: 'farms',
  exportCue: 'export',
  jobStatus: 'export',
  jobResult: 'export',
  // What SIEX holds of the farm against what the gateway exported.
  siexNotebook: 'export',
  catalogProducts: 'catalogue',
  catalogProduct: 'catalogue',
  siexCatalogue: 'catalogue',
  applicatorCard: 'catalogue',
  // Whether exports can run now: the queues, the settings from Key Vault, SIEX reached.
  health: 'export',
  readWebhook: 'webhooks',
  setWebhook: 'webhooks',
  testWebhook: 'webhooks',
  rotateWebhookSecret: 'webhooks',
  listWebhookDeliveries: 'webhooks',
};
