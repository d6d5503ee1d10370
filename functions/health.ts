import { HttpHandler, HttpRequest, HttpResponseInit, InvocationContext } from '@azure/functions';
import { processApp } from '../shared/app/services';
import { DomainError, violation } from '../shared/domain/errors';
import { checkHealth } from '../shared/health/health-check';
import { probeSiex } from '../shared/health/siex-probe';
import { authMode, fromApiManagement } from '../shared/http/auth';
import { problemResponse } from '../shared/http/problem';
import { invocationSink } from '../shared/log/invocation-sink';
import { APP_QUEUES, QueueSender } from '../shared/store/queues';
import { TABLES } from '../shared/store/tables';
import { withDeadline } from '../shared/store/deadline';
import { readDirectoryVersion } from '../shared/catalog/catalog-version';

/**
 * GET /v1/health (shared/http/contracts/health.ts): no client and no key of one, so not through the client pipeline;
 * behind API Management, only a request the platform admitted as API Management's identity is answered, as every other
 * operation's. 200 or 503 with what each check found; the SIEX probe is logged for its alert (`siex.probe`).
 */
const HEALTH_BUDGET_MS = 10_000;

export const handler: HttpHandler = async (
  request: HttpRequest,
  context: InvocationContext,
): Promise<HttpResponseInit> => {
  const app = processApp();
  if (authMode(app.settings) === 'apim' && !fromApiManagement(request, app.settings.APIM_PRINCIPAL_ID))
    return problemResponse(
      new DomainError('The request did not come through the gateway.', [
        violation('INVALID_CREDENTIALS', 'header', 'call the gateway at its API Management address'),
      ]),
    );
  // Every storage call of the checks ends within this, so the answer comes well inside the availability test's 30 s.
  const { health, probe } = await withDeadline(HEALTH_BUDGET_MS, () =>
    checkHealth({
      readTables: async () => readDirectoryVersion(await app.tables.table(TABLES.catalog)),
      queueDepths: async () =>
        Object.fromEntries(
          await Promise.all(
            APP_QUEUES.map(async (q) => [q, await new QueueSender(app.settings, q).waiting()] as const),
          ),
        ),
      settings: process.env,
      probeSiex: () => probeSiex(app.settings),
      now: () => performance.now(),
    }),
  );
  app.log.within({ correlationId: context.invocationId, sink: invocationSink(context) }, () =>
    app.log.event('siex.probe', probe),
  );
  return {
    status: health.status === 'ok' ? 200 : 503,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
    body: JSON.stringify(health),
  };
};
