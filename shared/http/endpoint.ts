import { HttpHandler, HttpRequest, HttpResponseInit, InvocationContext } from '@azure/functions';
import { z } from 'zod';
import { Settings } from '../config/settings';
import { Client } from '../clients/client-store';
import { RateLimiter } from '../clients/rate-limit';
import { Admission } from './admission';
import { authenticate, FindClient } from './auth';
import { parseJsonBody, readBodyLimited } from './body';
import { idempotencyKey } from './idempotency';
import { OperationKeys } from '../idempotency/key-operations';
import { Contract } from './contract';
import { problemResponse } from './problem';
import { DomainError, violation } from '../domain/errors';
import { zodViolations } from '../domain/validation';
import { isStorageUnavailable } from '../store/azure-sdk';
import { withDeadline } from '../store/deadline';
import { LogEvents } from '../log/log-events';
import { eventLine, Logger } from '../log/logger';
import { UnreadableRow } from '../records/unreadable-row';
import { invocationSink } from '../log/invocation-sink';

/**
 * The interface's response time-out is 30 s: every storage call of a request ends within this budget (a storage that
 * hangs costs the request this much at most), leaving time to answer 503.
 */
const REQUEST_BUDGET_MS = 25_000;
/** What a 503 for unavailable storage tells the client to wait. */
const STORAGE_RETRY_AFTER_SECONDS = 5;

/** What the pipeline itself needs before any handler runs: the settings it enforces, the clients, the limiter. */
export interface Gate {
  settings: Pick<Settings, 'AUTH_MODE' | 'APIM_PRINCIPAL_ID' | 'RATE_LIMIT_PER_MINUTE' | 'MAX_BODY_BYTES'>;
  findClient: FindClient;
  limiter: RateLimiter;
  /** How much of this instance's work is taken on at once; past it a request is refused with 503 before any work. */
  admission: Admission;
  /** The operation each Idempotency-Key belongs to: a key sent on another is refused before the handle runs. */
  keys: OperationKeys;
}

/** The pipeline's gate and the use cases handlers call; the process builds one (shared/app/services.ts), tests their own. */
export interface EndpointApp<U> {
  gate: Gate;
  useCases: U;
  /** The request's scope is opened on it: the invocation's log, and its invocation id as the correlation id. */
  log?: Logger;
}

interface EndpointInput<Q, B, P = undefined> {
  client: Client;
  /** The path parameters, validated by the contract. */
  params: P;
  query: Q;
  body: B;
  request: HttpRequest;
  context: InvocationContext;
}

/**
 * A reply: `json` is serialized; `rawJson` is JSON text already rendered (served as is, no parse/serialize); `empty`
 * has no body (204).
 */
export type Reply = { status: number; headers?: Record<string, string> } & (
  { json: unknown } | { rawJson: string } | { empty: true }
);

type Parsed<S> = S extends z.ZodType ? z.infer<S> : undefined;

/** An endpoint's own work, once the pipeline has authenticated the caller and validated the request. */
export type Handle<
  Q extends z.ZodType,
  B extends z.ZodType | undefined,
  U,
  P extends z.ZodType | undefined = undefined,
> = (input: EndpointInput<z.infer<Q>, Parsed<B>, Parsed<P>>, useCases: U) => Promise<Reply>;

/** The handle type of a contract's endpoint: what a function file exports. */
export type HandleOf<C, U> = C extends Contract<infer Q, infer B, infer P> ? Handle<Q, B, U, P> : never;

/** First value of each query parameter: the host passes duplicates through, and the spec defines none. */
function queryObject(request: HttpRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of request.query.entries()) if (!(k in out)) out[k] = v;
  return out;
}

/**
 * The local rate limit, per client: only with AUTH_MODE local, as in Azure API Management limits the callers before
 * they reach the function.
 */
function takeRateLimit(gate: Gate, client: Client): void {
  if (gate.settings.AUTH_MODE !== 'local') return;
  const wait = gate.limiter.take(client.id);
  if (wait > 0) {
    throw new DomainError(
      `Rate limit of ${gate.settings.RATE_LIMIT_PER_MINUTE} requests per minute exceeded.`,
      [violation('RATE_LIMITED', '', `retry after ${wait} seconds`)],
      wait,
    );
  }
}

/** The path, query and body as the contract's schemas parse them, or one 400 listing every violation of the three. */
function validated<Q extends z.ZodType, B extends z.ZodType | undefined, P extends z.ZodType | undefined>(
  contract: Contract<Q, B, P>,
  request: HttpRequest,
  raw: unknown,
): { params: Parsed<P>; query: z.infer<Q>; body: Parsed<B> } {
  const params = contract.params?.safeParse(request.params, { reportInput: true });
  const query = contract.query.safeParse(queryObject(request), { reportInput: true });
  const body = contract.body?.safeParse(raw, { reportInput: true });
  const violations = [
    ...(params && !params.success ? zodViolations('path', params.error) : []),
    ...(query.success ? [] : zodViolations('query', query.error)),
    ...(body && !body.success ? zodViolations('body', body.error) : []),
  ];
  if (violations.length > 0) throw new DomainError('The request is not valid.', violations);
  return { params: params?.data as Parsed<P>, query: query.data as z.infer<Q>, body: body?.data as Parsed<B> };
}

/** The handle's reply as the host sends it. */
function httpResponse(reply: Reply): HttpResponseInit {
  if ('empty' in reply) return { status: reply.status, headers: reply.headers };
  const headers = { 'Content-Type': 'application/json; charset=utf-8', ...reply.headers };
  return { status: reply.status, headers, body: 'rawJson' in reply ? reply.rawJson : JSON.stringify(reply.json) };
}

/**
 * The request pipeline every HTTP function goes through, in the order that costs least for bad requests:
 * admission (503 OVERLOADED when the instance is at capacity), credentials (401), rate limit (429), body size (413), content type and JSON (400), query and body schemas (400),
 * the Idempotency-Key's operation (422), then the handle, with every storage call bounded by REQUEST_BUDGET_MS. Any DomainError becomes problem details;
 * unavailable storage a 503 with Retry-After; anything else a 500 that hides internals.
 */
export function endpoint<Q extends z.ZodType, B extends z.ZodType | undefined, U, P extends z.ZodType | undefined>(
  contract: Contract<Q, B, P>,
  handle: Handle<Q, B, U, P>,
  getApp: () => EndpointApp<U>,
): HttpHandler {
  return (request: HttpRequest, context: InvocationContext): Promise<HttpResponseInit> =>
    withDeadline(REQUEST_BUDGET_MS, () => serve(request, context));

  async function serve(request: HttpRequest, context: InvocationContext): Promise<HttpResponseInit> {
    try {
      const app = getApp();
      // Admission comes first: a request turned away has cost nothing, not even the read of its client.
      return await app.gate.admission.within(() =>
        // The invocation id is the correlation id: the 500 answer names it, and a job started here logs under it.
        app.log
          ? app.log.within({ correlationId: context.invocationId, sink: invocationSink(context) }, () =>
              handled(app, request, context),
            )
          : handled(app, request, context),
      );
    } catch (e) {
      return failed(e, context);
    }
  }

  async function handled(
    app: EndpointApp<U>,
    request: HttpRequest,
    context: InvocationContext,
  ): Promise<HttpResponseInit> {
    const { gate, useCases } = app;
    const client = await authenticate(request, gate.settings, gate.findClient);
    takeRateLimit(gate, client);
    const raw = contract.body
      ? parseJsonBody(request, await readBodyLimited(request, gate.settings.MAX_BODY_BYTES))
      : undefined;
    const input = { client, ...validated(contract, request, raw), request, context };
    const key = contract.idempotent ? idempotencyKey(request) : null;
    const reply = key
      ? await gate.keys.within(client.id, key, contract.operationId, () => handle(input, useCases))
      : await handle(input, useCases);
    return httpResponse(reply);
  }

  /** Problem details for what went wrong; the gateway's own failures are logged (`request.failed`) under the invocation. */
  function failed(e: unknown, context: InvocationContext): HttpResponseInit {
    if (e instanceof DomainError) return problemResponse(e);
    const logged = (code: LogEvents['request.failed']['code'], level: 'warn' | 'error') =>
      context[level](
        eventLine('request.failed', context.invocationId, {
          operation: contract.operationId,
          code,
          detail: e instanceof Error ? (e.stack ?? e.message) : String(e),
        }),
      );
    if (e instanceof UnreadableRow) {
      // The farm's data, not the request, is at fault, and a retry meets the same row until an operator rebuilds it.
      logged('STORED_DATA_UNREADABLE', 'error');
      return problemResponse(
        new DomainError(
          'A total the gateway keeps for this farm cannot be read; the operators are alerted and rebuild it from the records.',
          [violation('STORED_DATA_UNREADABLE', '', `invocation ${context.invocationId}`)],
          STORAGE_RETRY_AFTER_SECONDS,
        ),
      );
    }
    if (isStorageUnavailable(e)) {
      logged('STORAGE_UNAVAILABLE', 'warn');
      return problemResponse(
        new DomainError(
          'The gateway cannot reach its storage right now; retry after Retry-After seconds.',
          [violation('STORAGE_UNAVAILABLE', '', `invocation ${context.invocationId}`)],
          STORAGE_RETRY_AFTER_SECONDS,
        ),
      );
    }
    logged('INTERNAL', 'error');
    return problemResponse(
      new DomainError('The gateway failed to process the request; retry with exponential backoff.', [
        violation('INTERNAL', '', `invocation ${context.invocationId}`),
      ]),
    );
  }
}
