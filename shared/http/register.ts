import { app, HttpHandler } from '@azure/functions';
import { Contract } from './contract';

/** Registers one HTTP function per route spelling of a contract (the host routes each registration separately). */
export function registerHttp(contract: Contract, handler: HttpHandler): void {
  contract.routes.forEach((route, i) => {
    app.http(i === 0 ? contract.operationId : `${contract.operationId}-${i}`, {
      route,
      methods: [contract.method],
      // No function key: in Azure, App Service authentication lets only API Management's identity reach the host
      // (infra/modules/functionApp.bicep), and API Management holds no key to present.
      authLevel: 'anonymous',
      handler,
    });
  });
}
