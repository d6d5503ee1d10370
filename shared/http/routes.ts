/**
 * Where each HTTP operation is served, and nothing else: the app registers its functions from these alone at
 * start-up (functions/index.ts), so a cold start loads no schema library and no handler. The contracts
 * (contracts/*.ts) add the schemas and examples to these, so each address is written once. Every record kind's seven
 * operations are made from its entry (record-routes.ts); shared/app/routes.ts puts them all together.
 */
export interface Route {
  operationId: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Every spelling the spec shows, without a leading slash (host.json routePrefix is ""); `{name}` is a path parameter. */
  routes: string[];
}

const route = <I extends string>(operationId: I, method: Route['method'], ...routes: string[]) =>
  ({ operationId, method, routes }) satisfies Route;

/** The address of every operation that is not a record kind's, by operation id. */
export const CORE_ROUTES = {
  farmLookup: route('farmLookup', 'GET', 'v1/siex/farms'),
  listIdcp: route('listIdcp', 'POST', 'v1/siex/listidcp'),
  siexNotebook: route('siexNotebook', 'GET', 'v1/siex/notebook'),
  exportCue: route('exportCue', 'POST', 'v1/entities/siex/exportCUE', 'v1/siex/exportCUE'),
  jobStatus: route('jobStatus', 'GET', 'api-service/v1/entities/jobstatus', 'v1/entities/jobstatus'),
  jobResult: route('jobResult', 'GET', 'api-service/v1/entities/jobresult', 'v1/entities/jobresult'),
  catalogProducts: route('catalogProducts', 'GET', 'v1/catalog/products'),
  catalogProduct: route('catalogProduct', 'GET', 'v1/catalog/products/{code}'),
  siexCatalogue: route('siexCatalogue', 'GET', 'v1/catalog/siex/{name}'),
  applicatorCard: route('applicatorCard', 'GET', 'v1/catalog/applicators'),
  health: route('health', 'GET', 'v1/health'),
  readWebhook: route('readWebhook', 'GET', 'v1/webhooks'),
  setWebhook: route('setWebhook', 'PUT', 'v1/webhooks'),
  testWebhook: route('testWebhook', 'POST', 'v1/webhooks/test'),
  rotateWebhookSecret: route('rotateWebhookSecret', 'POST', 'v1/webhooks/rotate'),
  listWebhookDeliveries: route('listWebhookDeliveries', 'GET', 'v1/webhooks/deliveries'),
};
