import { app, HttpHandler } from '@azure/functions';
import { Route } from '../http/routes';

/**
 * Registers one HTTP function per route spelling of an operation (the host routes each registration separately).
 * Start-up needs the address alone: `handler` loads the endpoint's module when it is first called
 * (functions/index.ts), so registering loads no schema and no handler.
 */
export function registerHttp(route: Route, handler: HttpHandler): void {
  route.routes.forEach((path, i) => {
    app.http(i === 0 ? route.operationId : `${route.operationId}-${i}`, {
      route: path,
      methods: [route.method],
      // No function key: in Azure, App Service authentication lets only API Management's identity reach the host
      // (infra/modules/functionApp.bicep), and API Management holds no key to present.
      authLevel: 'anonymous',
      handler,
    });
  });
}
