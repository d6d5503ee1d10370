import { Contract } from '../http/contract';
import { farmLookup } from '../http/contracts/farm-lookup';
import { listIdcp } from '../http/contracts/list-idcp';
import { recordContracts } from '../http/contracts/record-contracts';
import { viewContract } from '../http/contracts/kind-view';
import { exportCue } from '../http/contracts/export-cue';
import { jobStatus } from '../http/contracts/job-status';
import { jobResultContract } from '../http/contracts/job-result';
import { siexNotebookContract } from '../http/contracts/siex-notebook';
import { catalogProducts } from '../http/contracts/catalog-products';
import { catalogProduct } from '../http/contracts/catalog-product';
import { siexCatalogue } from '../http/contracts/catalog-siex';
import { applicatorCard } from '../http/contracts/catalog-applicator';
import { health } from '../http/contracts/health';
import * as webhooks from '../http/contracts/webhooks';
import { KindEntry } from '../records/kind-entry';
import { RECORD_KINDS } from './record-kinds';

/**
 * Every HTTP operation of the gateway, as data: routes, inputs, outputs and the error codes each may answer, in the
 * order of the OpenAPI document (each registered kind's seven after the farm's, then the views the kinds bring). Each
 * contract has a module of its own, which its function file imports, so an invocation builds its own operation's
 * schemas alone (a kind's, its own kind's: docs/architecture.md, "Cold start"); this list, for the OpenAPI document
 * and the tests, builds them all. No function imports it.
 */
export const contracts: Contract[] = [
  farmLookup,
  listIdcp,
  ...RECORD_KINDS.flatMap((kind) => Object.values(recordContracts(kind))),
  ...RECORD_KINDS.flatMap((kind: KindEntry) => (kind.views ?? []).map(viewContract)),
  exportCue,
  jobStatus,
  jobResultContract,
  siexNotebookContract,
  catalogProducts,
  catalogProduct,
  siexCatalogue,
  applicatorCard,
  health,
  webhooks.readWebhookContract,
  webhooks.setWebhookContract,
  webhooks.testWebhookContract,
  webhooks.rotateWebhookSecretContract,
  webhooks.listWebhookDeliveriesContract,
];
