import { app, HttpHandler } from '@azure/functions';
import { settings } from '../config/config';
import { authMode } from './auth';
import { Contract } from './contract';

/**
 * Registers one HTTP function per route spelling of a contract (the host routes each registration separately).
 * Registration is the app's start-up, so the settings are read here first: a missing or invalid one (AUTH_MODE has no
 * default) stops the app from loading, with its name, instead of failing every request.
 */
export function registerHttp(contract: Contract, handler: HttpHandler): void {
  authMode(settings());
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
