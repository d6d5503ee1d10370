import type { HttpHandler, InvocationContext, Timer } from '@azure/functions';
import { RECORD_KINDS } from '../shared/app/record-kinds';
import type { KindViewOperationId, OperationId, RecordKindOperationId } from '../shared/app/routes';
import { onFirstUse } from '../shared/cache/on-first-use';
import { recordRoutes } from '../shared/http/record-routes';
import { KindEntry, RECORD_OPERATIONS, RecordOperation } from '../shared/records/kind-entry';
import { dataTables } from '../shared/store/azure-sdk';

/** An HTTP function's handler that imports its module on the first call; `load` imports it ahead of that call. */
interface LazyHandler extends HttpHandler {
  load(): Promise<unknown>;
}

function lazy(load: () => Promise<HttpHandler>): LazyHandler {
  return Object.assign<HttpHandler, Pick<LazyHandler, 'load'>>(async (r, c) => (await load())(r, c), { load });
}

/** A function file's handler, from its module. */
const handlerIn = (load: () => Promise<{ handler: HttpHandler }>) => lazy(async () => (await load()).handler);

/** Each of a record kind's seven operations: a kind-free function file, given the kind. */
const RECORD_FUNCTIONS: Record<RecordOperation, () => Promise<{ handlerOf(kind: KindEntry): HttpHandler }>> = {
  register: () => import('./record-register'),
  batch: () => import('./record-batch'),
  list: () => import('./record-list'),
  read: () => import('./record-read'),
  amend: () => import('./record-amend'),
  delete: () => import('./record-delete'),
  history: () => import('./record-history'),
};

/** Every registered kind's operations, by operation id; each kind's handler is made once, on its first call. */
function kindOperations(): Record<RecordKindOperationId, LazyHandler> {
  const handlers = RECORD_KINDS.flatMap((kind: KindEntry) => {
    const routes = recordRoutes(kind);
    return RECORD_OPERATIONS.map((op) => {
      const handler = onFirstUse(async () => (await RECORD_FUNCTIONS[op]()).handlerOf(kind));
      return [routes[op].operationId, lazy(handler)] as const;
    });
  });
  return Object.fromEntries(handlers) as Record<RecordKindOperationId, LazyHandler>;
}

/** Every view the registered kinds bring, by operation id: one kind-free function file, given the view. */
function viewOperations(): Record<KindViewOperationId, LazyHandler> {
  const handlers = RECORD_KINDS.flatMap((kind: KindEntry) =>
    (kind.views ?? []).map((view) => {
      const handler = onFirstUse(async () => (await import('./kind-view')).handlerOf(view));
      return [view.operationId, lazy(handler)] as const;
    }),
  );
  return Object.fromEntries(handlers) as Record<KindViewOperationId, LazyHandler>;
}

/**
 * Every function's handler, each importing its module on its function's first invocation (an import is done once and
 * kept). The app registers the functions without this file (functions/index.ts) and loads it on the first invocation
 * of any function; the deploy package bundles it, and all it imports, as `app.js` (docs/architecture.md, "Cold
 * start"). Every operation of shared/app/routes.ts needs its entry here, or this does not compile.
 */
export const operations: Record<OperationId, LazyHandler> = {
  farmLookup: handlerIn(() => import('./farm-lookup')),
  listIdcp: handlerIn(() => import('./list-idcp')),
  ...kindOperations(),
  ...viewOperations(),
  exportCue: handlerIn(() => import('./export-cue')),
  jobStatus: handlerIn(() => import('./job-status')),
  jobResult: handlerIn(() => import('./job-result')),
  siexNotebook: handlerIn(() => import('./siex-notebook')),
  catalogProducts: handlerIn(() => import('./catalog-products')),
  catalogProduct: handlerIn(() => import('./catalog-product')),
  siexCatalogue: handlerIn(() => import('./catalog-siex')),
  applicatorCard: handlerIn(() => import('./catalog-applicator')),
  health: handlerIn(() => import('./health')),
  readWebhook: lazy(async () => (await import('./webhooks')).readWebhook),
  setWebhook: lazy(async () => (await import('./webhooks')).setWebhook),
  testWebhook: lazy(async () => (await import('./webhooks')).testWebhook),
  rotateWebhookSecret: lazy(async () => (await import('./webhooks')).rotateWebhookSecret),
  listWebhookDeliveries: lazy(async () => (await import('./webhooks')).listWebhookDeliveries),
};

export const http: Record<OperationId | 'openapi' | 'notFound', HttpHandler> = {
  ...operations,
  openapi: async () => (await import('./openapi')).serveOpenApi(),
  notFound: async () => (await import('./not-found')).notFound(),
};

/**
 * Starts what an operation's first request would otherwise start: every operation's module (its contract, its
 * schemas, the request pipeline) and the table storage SDK, each in a turn of the event loop of its own so that a
 * request arriving meanwhile is not held behind all of them. The OpenAPI document (every schema rendered) is left to
 * its own rare first call. The build runs it too, before writing app.js's code cache, so the cache holds these
 * modules' compiled code (local/build-package.ts).
 */
export async function loadOperations(): Promise<void> {
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  dataTables();
  for (const op of Object.values(operations)) {
    await turn();
    await op.load();
  }
}

/**
 * The instance's warm-up, started after start-up and never awaited by it (functions/index.ts): Node's web Request,
 * the operations' modules, then the process's services from its settings and a first storage read. A failure here is
 * left to the first invocation to report, which meets the same error (an invalid setting names itself there).
 */
export async function warmUp(): Promise<void> {
  // The programming model turns every HTTP request into the web Request class, which Node loads (its own fetch,
  // undici) when first used: tens of milliseconds that the first request would otherwise pay.
  new Request('http://localhost/', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
  await loadOperations();
  await (await import('../shared/app/services')).processApp().connect();
}

export const exportWorker = async (message: unknown, context: InvocationContext) =>
  (await import('./export-worker')).exportWorker(message, context);

export const exportPoison = async (message: unknown, context: InvocationContext) =>
  (await import('./export-worker')).exportPoison(message, context);

export const webhookDelivery = async (message: unknown, context: InvocationContext) =>
  (await import('./webhook-delivery')).webhookDelivery(message, context);

export const exportSweeper = async (timer: Timer, context: InvocationContext) =>
  (await import('./export-sweeper')).exportSweeper(timer, context);

export const tableBackup = async (timer: Timer, context: InvocationContext) =>
  (await import('./table-backup')).tableBackup(timer, context);

export const siexCertificateCheck = async (timer: Timer, context: InvocationContext) =>
  (await import('./siex-certificate')).siexCertificateCheck(timer, context);
