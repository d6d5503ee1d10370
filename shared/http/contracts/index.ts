import { Contract } from '../contract';
import { farmLookup } from './farm-lookup';
import { listIdcp } from './list-idcp';
import { registerPhyto } from './register-phytosanitary';
import { registerPhytoBatch } from './register-phytosanitary-batch';
import { listPhyto } from './list-phytosanitary';
import { readPhyto } from './read-phytosanitary';
import { amendPhyto } from './amend-phytosanitary';
import { deletePhyto } from './delete-phytosanitary';
import { phytoHistory } from './phytosanitary-history';
import { registerFertilization } from './register-fertilization';
import { listFertilization } from './list-fertilization';
import { readFertilization } from './read-fertilization';
import { amendFertilization } from './amend-fertilization';
import { deleteFertilization } from './delete-fertilization';
import { fertilizationHistory } from './fertilization-history';
import { safeHarvestContract } from './safe-harvest';
import { exportCue } from './export-cue';
import { jobStatus } from './job-status';
import { jobResultContract } from './job-result';
import { catalogProducts } from './catalog-products';
import { catalogProduct } from './catalog-product';
import { siexCatalogue } from './catalog-siex';
import { applicatorCard } from './catalog-applicator';
import { health } from './health';

/**
 * Every HTTP operation of the gateway, as data: routes, inputs, outputs and the error codes each may answer. Each
 * contract has a module of its own, which its function file imports, so an invocation builds its own operation's
 * schemas alone (docs/architecture.md, "Cold start"); this list, for the OpenAPI document and the tests, builds them
 * all. No function imports it.
 */
export const contracts: Contract[] = [
  farmLookup,
  listIdcp,
  registerPhyto,
  registerPhytoBatch,
  listPhyto,
  readPhyto,
  amendPhyto,
  deletePhyto,
  phytoHistory,
  registerFertilization,
  listFertilization,
  readFertilization,
  amendFertilization,
  deleteFertilization,
  fertilizationHistory,
  safeHarvestContract,
  exportCue,
  jobStatus,
  jobResultContract,
  catalogProducts,
  catalogProduct,
  siexCatalogue,
  applicatorCard,
  health,
];
