import { HttpHandler } from '@azure/functions';
import { z } from 'zod';
import { Contract } from '../http/contract';
import { endpoint, Handle } from '../http/endpoint';
import { processApp } from './services';
import { UseCases } from './use-cases';

/**
 * The HTTP handler of a contract's endpoint: `handle` through the request pipeline with the process's use cases. A
 * function file exports it; the app registers it by its route (functions/index.ts) and loads it on its first call.
 */
export function serve<Q extends z.ZodType, B extends z.ZodType | undefined, P extends z.ZodType | undefined>(
  contract: Contract<Q, B, P>,
  handle: Handle<Q, B, UseCases, P>,
): HttpHandler {
  return endpoint(contract, handle, processApp);
}
