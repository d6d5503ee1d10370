import { FunctionsCoreHost, RegisteredFunction } from '../../local/functions-core/core-api';
import { RpcHttpData } from '../../local/functions-core/types';
import { Invoker } from '../../local/runner/invoke';
import { RunnerLogger } from '../../local/runner/logger';

/**
 * The invocation pipeline (local/runner/invoke.ts) with the real `@azure/functions` programming model: RPC-shaped
 * requests in, genuine HttpRequest / InvocationContext for the handler, RPC responses out, hooks in the worker's order.
 */

type AzureFunctions = typeof import('@azure/functions');

// The library requires the core module lazily (on the first app.* call), so the virtual module forwards to whichever
// host the current test made; `jest.resetModules` gives each test a fresh library.
let mockCurrentHost: FunctionsCoreHost | undefined;
jest.mock(
  '@azure/functions-core',
  () =>
    new Proxy(
      {},
      {
        get: (_target, key) => (mockCurrentHost!.module as unknown as Record<string | symbol, unknown>)[key],
        has: (_target, key) => key in mockCurrentHost!.module,
      },
    ),
  { virtual: true },
);

function setup() {
  const host = new FunctionsCoreHost();
  jest.resetModules();
  mockCurrentHost = host;
  const lib = jest.requireActual<AzureFunctions>('@azure/functions');
  const logs: string[] = [];
  const logger: RunnerLogger = {
    info: () => undefined,
    warn: () => undefined,
    error: (m) => logs.push(`error ${m}`),
    invocation: () => undefined,
    app: (level, category, fn, message) => logs.push(`${level} ${category} ${fn ?? '-'} ${message}`),
    learnKeys: () => undefined,
  };
  const invoker = new Invoker(host, logger);
  const fn = (name: string): RegisteredFunction => host.functions.get(name.toLowerCase())!;
  return { host, app: lib.app, lib, invoker, logs, fn };
}

/** The HTTP trigger input for `fn` (the library names trigger bindings itself, e.g. `httpTrigger1a2b3c`). */
function httpInput(fn: RegisteredFunction, http: RpcHttpData) {
  const trigger = Object.entries(fn.metadata.bindings).find(([, b]) => b.direction === 'in')![0];
  return { inputData: [{ name: trigger, data: { http } }] };
}

const get = (url: string, extra: Partial<RpcHttpData> = {}): RpcHttpData => ({
  method: 'GET',
  url,
  headers: { 'x-test': 'yes' },
  query: {},
  params: {},
  body: { bytes: Buffer.alloc(0) },
  ...extra,
});

describe('Invoker', () => {
  it('gives the handler a real HttpRequest and InvocationContext, and returns its response as RPC', async () => {
    const { app, lib, invoker, fn } = setup();
    let seen: {
      isRequest: boolean;
      isContext: boolean;
      name?: string;
      header?: string | null;
      q?: string | null;
      id?: string;
      body?: string;
    } = {
      isRequest: false,
      isContext: false,
    };
    app.http('farm', {
      route: 'farms/{id}',
      handler: async (request, context) => {
        seen = {
          isRequest: request instanceof lib.HttpRequest,
          isContext: context instanceof lib.InvocationContext,
          name: context.functionName,
          header: request.headers.get('x-test'),
          q: request.query.get('year'),
          id: request.params.id,
          body: await request.text(),
        };
        return { status: 201, jsonBody: { ok: true }, headers: { 'x-out': '1' } };
      },
    });
    const response = await invoker.invoke(
      fn('farm'),
      httpInput(
        fn('farm'),
        get('http://h/farms/7?year=2026', {
          method: 'POST',
          query: { year: '2026' },
          params: { id: '7' },
          body: { bytes: Buffer.from('hi') },
        }),
      ),
    );
    expect(seen).toEqual({
      isRequest: true,
      isContext: true,
      name: 'farm',
      header: 'yes',
      q: '2026',
      id: '7',
      body: 'hi',
    });
    const http = response.returnValue?.http;
    expect(http?.statusCode).toBe('201');
    expect(http?.headers).toEqual(expect.objectContaining({ 'x-out': '1', 'content-type': 'application/json' }));
    expect(Buffer.from(http!.body!.bytes!).toString()).toBe('{"ok":true}');
  });

  it('runs pre- and post-invocation hooks in order, letting them swap the callback and clear an error', async () => {
    const { app, invoker, fn } = setup();
    const order: string[] = [];
    app.http('hooked', {
      handler: async () => {
        order.push('original');
        return { body: 'original' };
      },
    });
    app.hook.preInvocation((ctx) => {
      order.push(`pre ${ctx.invocationContext.functionName}`);
      ctx.hookData.mark = 'from-pre';
      ctx.functionHandler = async () => {
        order.push('replacement');
        throw new Error('replaced handler fails');
      };
    });
    app.hook.postInvocation((ctx) => {
      order.push(`post ${String(ctx.hookData.mark)} ${(ctx.error as Error).message}`);
      ctx.error = null;
      ctx.result = { body: 'rescued' };
    });
    const response = await invoker.invoke(fn('hooked'), httpInput(fn('hooked'), get('http://h/hooked')));
    expect(order).toEqual(['pre hooked', 'replacement', 'post from-pre replaced handler fails']);
    expect(Buffer.from(response.returnValue!.http!.body!.bytes!).toString()).toBe('rescued');
  });

  it('rethrows a handler error after the post-invocation hooks', async () => {
    const { app, invoker, fn } = setup();
    const post = jest.fn();
    app.http('fails', {
      handler: async () => {
        throw new Error('handler broke');
      },
    });
    app.hook.postInvocation(post);
    await expect(invoker.invoke(fn('fails'), httpInput(fn('fails'), get('http://h/fails')))).rejects.toThrow(
      'handler broke',
    );
    expect(post).toHaveBeenCalledTimes(1);
    expect(invoker.inFlight).toBe(0);
  });

  it('routes context logs to the logger with the function name, through log hooks', async () => {
    const { app, invoker, fn, logs } = setup();
    app.hook.log((ctx) => {
      if (ctx.category === 'user') ctx.message = `${ctx.message} (hooked)`;
    });
    app.http('chatty', {
      handler: async (_req, context) => {
        context.log('hello', 42);
        context.warn('careful');
        return {};
      },
    });
    await invoker.invoke(fn('chatty'), httpInput(fn('chatty'), get('http://h/chatty')));
    expect(logs).toEqual(
      expect.arrayContaining(['information user chatty hello 42 (hooked)', 'warning user chatty careful (hooked)']),
    );
  });

  it('passes a queue message as the parsed JSON, with camel-cased trigger metadata', async () => {
    const { app, invoker, fn } = setup();
    let got: unknown;
    let meta: unknown;
    app.storageQueue('worker', {
      queueName: 'jobs',
      connection: 'AzureWebJobsStorage',
      handler: async (message, context) => {
        got = message;
        meta = context.triggerMetadata;
      },
    });
    const trigger = Object.entries(fn('worker').metadata.bindings).find(([, b]) => b.direction === 'in')![0];
    await invoker.invoke(fn('worker'), {
      inputData: [{ name: trigger, data: { string: '{"jobId":12}' } }],
      triggerMetadata: { DequeueCount: { json: '2' }, Id: { json: '"abc"' } },
    });
    expect(got).toEqual({ jobId: 12 });
    expect(meta).toEqual({ dequeueCount: 2, id: 'abc' });
  });

  it('reports when it is idle', async () => {
    const { app, invoker, fn } = setup();
    let release: () => void = () => undefined;
    app.http('slow', { handler: () => new Promise((r) => (release = () => r({}))) });
    const running = invoker.invoke(fn('slow'), httpInput(fn('slow'), get('http://h/slow')));
    await new Promise((r) => setImmediate(r));
    expect(invoker.inFlight).toBe(1);
    let idle = false;
    const waiting = invoker.idle().then(() => (idle = true));
    expect(idle).toBe(false);
    release();
    await running;
    await waiting;
    expect(idle).toBe(true);
  });
});
