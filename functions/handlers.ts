import type { HttpHandler, InvocationContext, Timer } from '@azure/functions';
import type { OperationId } from '../shared/http/routes';

/**
 * Every function's handler, each importing its module on its function's first invocation (an import is done once and
 * kept). The app registers the functions without this file (functions/index.ts) and loads it on the first invocation
 * of any function; the deploy package bundles it, and all it imports, as `app.js` (docs/architecture.md, "Cold
 * start"). Every operation of shared/http/routes.ts needs its entry here, or this does not compile.
 */
export const http: Record<OperationId | 'openapi' | 'notFound', HttpHandler> = {
  farmLookup: async (r, c) => (await import('./farm-lookup')).handler(r, c),
  listIdcp: async (r, c) => (await import('./list-idcp')).handler(r, c),
  registerPhytosanitary: async (r, c) => (await import('./register-phytosanitary')).handler(r, c),
  registerPhytosanitaryBatch: async (r, c) => (await import('./register-phytosanitary-batch')).handler(r, c),
  listPhytosanitary: async (r, c) => (await import('./list-phytosanitary')).handler(r, c),
  readPhytosanitary: async (r, c) => (await import('./read-phytosanitary')).handler(r, c),
  amendPhytosanitary: async (r, c) => (await import('./amend-phytosanitary')).handler(r, c),
  deletePhytosanitary: async (r, c) => (await import('./delete-phytosanitary')).handler(r, c),
  phytosanitaryHistory: async (r, c) => (await import('./phytosanitary-history')).handler(r, c),
  registerFertilization: async (r, c) => (await import('./register-fertilization')).handler(r, c),
  listFertilization: async (r, c) => (await import('./list-fertilization')).handler(r, c),
  readFertilization: async (r, c) => (await import('./read-fertilization')).handler(r, c),
  amendFertilization: async (r, c) => (await import('./amend-fertilization')).handler(r, c),
  deleteFertilization: async (r, c) => (await import('./delete-fertilization')).handler(r, c),
  fertilizationHistory: async (r, c) => (await import('./fertilization-history')).handler(r, c),
  safeHarvest: async (r, c) => (await import('./safe-harvest')).handler(r, c),
  exportCue: async (r, c) => (await import('./export-cue')).handler(r, c),
  jobStatus: async (r, c) => (await import('./job-status')).handler(r, c),
  jobResult: async (r, c) => (await import('./job-result')).handler(r, c),
  catalogProducts: async (r, c) => (await import('./catalog-products')).handler(r, c),
  catalogProduct: async (r, c) => (await import('./catalog-product')).handler(r, c),
  siexCatalogue: async (r, c) => (await import('./catalog-siex')).handler(r, c),
  applicatorCard: async (r, c) => (await import('./catalog-applicator')).handler(r, c),
  openapi: async () => (await import('./openapi')).serveOpenApi(),
  notFound: async () => (await import('./not-found')).notFound(),
};

export const exportWorker = async (message: unknown, context: InvocationContext) =>
  (await import('./export-worker')).exportWorker(message, context);

export const exportPoison = async (message: unknown, context: InvocationContext) =>
  (await import('./export-worker')).exportPoison(message, context);

export const exportSweeper = async (timer: Timer, context: InvocationContext) =>
  (await import('./export-sweeper')).exportSweeper(timer, context);

export const tableBackup = async (timer: Timer, context: InvocationContext) =>
  (await import('./table-backup')).tableBackup(timer, context);

export const siexCertificateCheck = async (timer: Timer, context: InvocationContext) =>
  (await import('./siex-certificate')).siexCertificateCheck(timer, context);
