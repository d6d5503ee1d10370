import { app, HttpHandler } from '@azure/functions';
import { enableCompileCache } from '../shared/app/compile-cache';
import { registerHttp } from '../shared/app/register-http';
import { onFirstUse } from '../shared/cache/on-first-use';
import { checkAuthSettings } from '../shared/config/auth-settings';
import { BACKUP_SCHEDULE } from '../shared/backup/backup-schedule';
import { SWEEP_SCHEDULE } from '../shared/export/job-lease';
import { CERTIFICATE_CHECK_SCHEDULE } from '../shared/siex/certificate-schedule';
import { OperationId, ROUTES } from '../shared/app/routes';
import { EXPORT_POISON_QUEUE, EXPORT_QUEUE, WEBHOOK_QUEUE } from '../shared/store/queues';

/**
 * The app's start-up, what the Functions host loads (package.json `main`): it registers every function from its
 * address alone and loads the handlers (./handlers, the deploy package's app.js) on the first invocation, so a cold
 * start pays for @azure/functions and these few lines only (docs/architecture.md, "Cold start").
 */
enableCompileCache();
// Read once, here: without AUTH_MODE (or apim mode without API Management's identity) the app does not start.
checkAuthSettings(process.env);

// require, not import(): the deploy package is CommonJS, and the bundle keeps this as require('./app.js').
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the lazy load this file exists for
const handlers = onFirstUse(() => require('./handlers') as typeof import('./handlers'));

// The instance's warm-up, after start-up: the host awaits appStart hooks, so the hook only schedules it and returns,
// and registration still loads no handler. It shares the process with the first request, which it may delay, so it
// goes a module at a time (docs/architecture.md, "Cold start"). Its failure is the first invocation's to report.
app.hook.appStart(() => {
  setImmediate(
    () =>
      void Promise.resolve()
        .then(() => handlers().warmUp())
        .catch(() => undefined),
  );
});

const http =
  (name: OperationId | 'openapi' | 'notFound'): HttpHandler =>
  async (request, context) =>
    handlers().http[name](request, context);

for (const route of Object.values(ROUTES)) registerHttp(route, http(route.operationId));
// Public, so tools can fetch the OpenAPI document without keys.
app.http('openapi', { route: 'v1/openapi.json', methods: ['GET'], authLevel: 'anonymous', handler: http('openapi') });
// Every other method and path: the problem+json 404 API Management answers for an unknown operation
// (infra/policies/global.xml), instead of the host's empty 404. The host ranks a catch-all below every other route.
app.http('notFound', {
  route: '{*path}',
  methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'],
  authLevel: 'anonymous',
  handler: http('notFound'),
});
app.storageQueue('exportWorker', {
  queueName: EXPORT_QUEUE,
  connection: 'AzureWebJobsStorage',
  handler: async (message, context) => handlers().exportWorker(message, context),
});
app.storageQueue('exportPoison', {
  queueName: EXPORT_POISON_QUEUE,
  connection: 'AzureWebJobsStorage',
  handler: async (message, context) => handlers().exportPoison(message, context),
});
// Webhook deliveries, on their own queue: a receiver that hangs holds a delivery's slot, never an export's. Their poison
// queue is put back by the sweeper (no function group more, each costing two always-ready instances in production).
app.storageQueue('webhookDelivery', {
  queueName: WEBHOOK_QUEUE,
  connection: 'AzureWebJobsStorage',
  handler: async (message, context) => handlers().webhookDelivery(message, context),
});
app.timer('exportSweeper', {
  schedule: SWEEP_SCHEDULE,
  handler: async (timer, context) => handlers().exportSweeper(timer, context),
});
app.timer('tableBackup', {
  schedule: BACKUP_SCHEDULE,
  handler: async (timer, context) => handlers().tableBackup(timer, context),
});
app.timer('siexCertificateCheck', {
  schedule: CERTIFICATE_CHECK_SCHEDULE,
  handler: async (timer, context) => handlers().siexCertificateCheck(timer, context),
});
