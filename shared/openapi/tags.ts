import { RECORD_KINDS } from '../app/record-kinds';
import {
  KIND_OPERATION_IDS,
  KIND_VIEW_OPERATION_IDS,
  KindViewOperationId,
  OperationId,
  RecordKindOperationId,
} from '../app/routes';
import { KindEntry } from '../records/kind-entry';

/** Words as a sentence lists them: `a`, `a and b`, `a, b and c`. */
const listed = (words: readonly string[]) =>
  words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : words.join('');

/** The kinds the `records` tag names (their entries' `label.tag`), in the registry's order. */
const NAMED = listed(RECORD_KINDS.flatMap((kind: KindEntry) => (kind.label.tag ? [kind.label.tag] : [])));

/** What the farm campaign's operations show beyond its locations: the kinds' views, in the registry's order. */
const VIEWS_SHOWN = listed(RECORD_KINDS.flatMap((kind: KindEntry) => (kind.views ?? []).map((view) => view.shows)));

/** The document's groups, in the order a reader meets them in the README flow; generators name client classes by them. */
export const TAGS = {
  farms: `The farm campaign, its crop locations (idcp), ${VIEWS_SHOWN}.`,
  records:
    `${NAMED.charAt(0).toUpperCase()}${NAMED.slice(1)} (RD 1051/2022) records: register (one or a batch), list, read, ` +
    'amend, delete, and their history.',
  export: 'Sending records to SIEX as a CUE document, and following the job that does it.',
  catalogue: 'What a registration accepts: products for a crop, official SIEX catalogues, applicator cards.',
  webhooks:
    "The caller's webhook: where its job events are POSTed and which, a signed ping to try it, its secret rotated with an overlap, its last deliveries.",
} as const;

export type Tag = keyof typeof TAGS;

/** Every record kind's operations are its records', and the views the kinds bring are the farm campaign's. */
const KIND_TAGS = Object.fromEntries(KIND_OPERATION_IDS.map((id) => [id, 'records'])) as Record<
  RecordKindOperationId,
  Tag
>;
const VIEW_TAGS = Object.fromEntries(KIND_VIEW_OPERATION_IDS.map((id) => [id, 'farms'])) as Record<
  KindViewOperationId,
  Tag
>;

/** Each operation's group; typed by the operation ids, so a new route without a group does not compile. */
export const OPERATION_TAGS: Record<OperationId, Tag> = {
  farmLookup: 'farms',
  listIdcp: 'farms',
  ...KIND_TAGS,
  ...VIEW_TAGS,
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
