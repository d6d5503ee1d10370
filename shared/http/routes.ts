/**
 * Where each HTTP operation is served, and nothing else: the app registers its functions from these alone at
 * start-up (functions/index.ts), so a cold start loads no schema library and no handler. The contracts
 * (contracts.ts) add the schemas and examples to these, so each address is written once.
 */
export interface Route {
  operationId: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Every spelling the spec shows, without a leading slash (host.json routePrefix is ""); `{name}` is a path parameter. */
  routes: string[];
}

const route = <I extends string>(operationId: I, method: Route['method'], ...routes: string[]) =>
  ({ operationId, method, routes }) satisfies Route;

/** Every HTTP operation's address, by operation id. */
export const ROUTES = {
  farmLookup: route('farmLookup', 'GET', 'v1/siex/farms'),
  listIdcp: route('listIdcp', 'POST', 'v1/siex/listidcp'),
  registerPhytosanitary: route('registerPhytosanitary', 'POST', 'v1/entities/agriphytosanitarys'),
  registerPhytosanitaryBatch: route('registerPhytosanitaryBatch', 'POST', 'v1/entities/agriphytosanitarys/batch'),
  listPhytosanitary: route('listPhytosanitary', 'GET', 'v1/entities/agriphytosanitarys'),
  readPhytosanitary: route('readPhytosanitary', 'GET', 'v1/entities/agriphytosanitarys/{id}'),
  amendPhytosanitary: route('amendPhytosanitary', 'PATCH', 'v1/entities/agriphytosanitarys/{id}'),
  deletePhytosanitary: route('deletePhytosanitary', 'DELETE', 'v1/entities/agriphytosanitarys/{id}'),
  phytosanitaryHistory: route('phytosanitaryHistory', 'GET', 'v1/entities/agriphytosanitarys/{id}/history'),
  registerFertilization: route('registerFertilization', 'POST', 'v1/entities/agrifertilizes'),
  listFertilization: route('listFertilization', 'GET', 'v1/entities/agrifertilizes'),
  readFertilization: route('readFertilization', 'GET', 'v1/entities/agrifertilizes/{id}'),
  amendFertilization: route('amendFertilization', 'PATCH', 'v1/entities/agrifertilizes/{id}'),
  deleteFertilization: route('deleteFertilization', 'DELETE', 'v1/entities/agrifertilizes/{id}'),
  fertilizationHistory: route('fertilizationHistory', 'GET', 'v1/entities/agrifertilizes/{id}/history'),
  safeHarvest: route('safeHarvest', 'GET', 'v1/siex/safeharvest'),
  exportCue: route('exportCue', 'POST', 'v1/entities/siex/exportCUE', 'v1/siex/exportCUE'),
  jobStatus: route('jobStatus', 'GET', 'api-service/v1/entities/jobstatus', 'v1/entities/jobstatus'),
  jobResult: route('jobResult', 'GET', 'api-service/v1/entities/jobresult', 'v1/entities/jobresult'),
  catalogProducts: route('catalogProducts', 'GET', 'v1/catalog/products'),
  catalogProduct: route('catalogProduct', 'GET', 'v1/catalog/products/{code}'),
  siexCatalogue: route('siexCatalogue', 'GET', 'v1/catalog/siex/{name}'),
  applicatorCard: route('applicatorCard', 'GET', 'v1/catalog/applicators'),
  health: route('health', 'GET', 'v1/health'),
};

export type OperationId = keyof typeof ROUTES;
