import { app, HttpHandler } from '@azure/functions';
import { z } from 'zod';
import { settings } from '../config/config';
import { authMode } from '../http/auth';
import { Contract } from '../http/contract';
import { endpoint, Handle } from '../http/endpoint';
import { processApp } from './services';
import { UseCases } from './use-cases';

/**
 * Registers one HTTP function per route spelling of a contract (the host routes each registration separately), each
 * running `handle` through the request pipeline with the process's use cases. Registration is the app's start-up, so
 * the settings are read here first: a missing or invalid one (AUTH_MODE has no default) stops the app from loading,
 * with its name, instead of failing every request.
 */
export function registerHttp<Q extends z.ZodType, B extends z.ZodType | undefined, P extends z.ZodType | undefined>(
  contract: Contract<Q, B, P>,
  handle: Handle<Q, B, UseCases, P>,
): HttpHandler {
  authMode(settings());
  const handler = endpoint(contract, handle, processApp);
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
  return handler;
}
