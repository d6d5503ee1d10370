import { app, HttpHandler } from '@azure/functions';
import { z } from 'zod';
import { Contract } from '../http/contract';
import { endpoint, Handle } from '../http/endpoint';
import { processApp } from './services';
import { UseCases } from './use-cases';

/**
 * Registers one HTTP function per route spelling of a contract (the host routes each registration separately), each
 * running `handle` through the request pipeline with the process's use cases.
 */
export function registerHttp<Q extends z.ZodType, B extends z.ZodType | undefined, P extends z.ZodType | undefined>(
  contract: Contract<Q, B, P>,
  handle: Handle<Q, B, UseCases, P>,
): HttpHandler {
  const handler = endpoint(contract, handle, processApp);
  contract.routes.forEach((route, i) => {
    app.http(i === 0 ? contract.operationId : `${contract.operationId}-${i}`, {
      route,
      methods: [contract.method],
      // Production traffic reaches the app only through API Management, which presents the function key.
      authLevel: 'function',
      handler,
    });
  });
  return handler;
}
