import { app, HttpHandler } from '@azure/functions';
import { Contract } from './contract';

/** Registers one HTTP function per route spelling of a contract (the host routes each registration separately). */
export function registerHttp(contract: Contract, handler: HttpHandler): void {
  contract.routes.forEach((route, i) => {
    app.http(i === 0 ? contract.operationId : `${contract.operationId}-${i}`, {
      route,
      methods: [contract.method],
      // Production traffic reaches the app only through API Management, which presents the function key.
      authLevel: 'function',
      handler,
    });
  });
}
