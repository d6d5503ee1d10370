import { HttpHandler, HttpRequest, HttpResponseInit, InvocationContext } from '@azure/functions';
import { z } from 'zod';
import { Services, services as processServices } from '../app/services';
import { Client } from '../clients/client-store';
import { authenticate } from './auth';
import { parseJsonBody, readBodyLimited } from './body';
import { Contract } from './contract';
import { problemResponse } from './problem';
import { DomainError, violation } from '../domain/errors';
import { zodViolations } from '../domain/validation';

export interface EndpointInput<Q, B> {
  client: Client;
  query: Q;
  body: B;
  request: HttpRequest;
  context: InvocationContext;
  services: Services;
}

/** A reply: `json` is serialized; `rawJson` is JSON text already rendered (served as is, no parse/serialize). */
export type Reply = { status: number; headers?: Record<string, string> } & ({ json: unknown } | { rawJson: string });

type BodyOf<B> = B extends z.ZodType ? z.infer<B> : undefined;

/** First value of each query parameter: the host passes duplicates through, and the spec defines none. */
function queryObject(request: HttpRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of request.query.entries()) if (!(k in out)) out[k] = v;
  return out;
}

/**
 * The request pipeline every HTTP function goes through, in the order that costs least for bad requests:
 * credentials (401), rate limit (429), body size (413), content type and JSON (400), query and body schemas (400),
 * then the handler. Any DomainError becomes problem details; anything else is a 500 that hides internals.
 */
export function endpoint<Q extends z.ZodType, B extends z.ZodType | undefined>(
  contract: Contract<Q, B>,
  handle: (input: EndpointInput<z.infer<Q>, BodyOf<B>>) => Promise<Reply>,
  getServices: () => Services = processServices,
): HttpHandler {
  return async (request: HttpRequest, context: InvocationContext): Promise<HttpResponseInit> => {
    try {
      const svc = getServices();
      const client = await authenticate(request, svc.settings, (sidKey) => svc.findClient(sidKey));
      if (svc.settings.AUTH_MODE === 'local') {
        const wait = svc.limiter.take(client.id);
        if (wait > 0) {
          throw new DomainError(
            `Rate limit of ${svc.settings.RATE_LIMIT_PER_MINUTE} requests per minute exceeded.`,
            [violation('RATE_LIMITED', '', `retry after ${wait} seconds`)],
            wait,
          );
        }
      }
      const raw = contract.body
        ? parseJsonBody(request, await readBodyLimited(request, svc.settings.MAX_BODY_BYTES))
        : undefined;
      const query = contract.query.safeParse(queryObject(request), { reportInput: true });
      const body = contract.body?.safeParse(raw, { reportInput: true });
      const violations = [
        ...(query.success ? [] : zodViolations('query', query.error)),
        ...(body && !body.success ? zodViolations('body', body.error) : []),
      ];
      if (violations.length > 0) throw new DomainError('The request is not valid.', violations);
      const reply = await handle({
        client,
        query: query.data as z.infer<Q>,
        body: body?.data as BodyOf<B>,
        request,
        context,
        services: svc,
      });
      const headers = { 'Content-Type': 'application/json; charset=utf-8', ...reply.headers };
      return { status: reply.status, headers, body: 'rawJson' in reply ? reply.rawJson : JSON.stringify(reply.json) };
    } catch (e) {
      if (e instanceof DomainError) return problemResponse(e);
      context.error(`unhandled error in ${contract.operationId}`, e);
      return problemResponse(
        new DomainError('The gateway failed to process the request; retry with exponential backoff.', [
          violation('INTERNAL', '', `invocation ${context.invocationId}`),
        ]),
      );
    }
  };
}
