import { Disposable } from '../../local/functions-core/disposable';
import { FunctionsCoreHost } from '../../local/functions-core/core-api';

/**
 * The `@azure/functions-core` stand-in, driven by the real `@azure/functions` library: jest's module registry
 * ignores the runner's require hook, so the stand-in is provided as a virtual module instead, in a fresh registry
 * per test (the library caches the core module and its "model set" flag).
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

function loadLibrary(host: FunctionsCoreHost): AzureFunctions {
  jest.resetModules();
  mockCurrentHost = host;
  return jest.requireActual<AzureFunctions>('@azure/functions');
}

describe('functions-core stand-in', () => {
  it('captures app.http registrations as the host would index them', () => {
    const host = new FunctionsCoreHost();
    const { app } = loadLibrary(host);
    const handler = async () => ({ body: 'x' });
    app.http('getFarms', { route: 'v1/siex/farms', methods: ['GET'], authLevel: 'function', handler });

    expect(host.programmingModel?.name).toBe('@azure/functions');
    const fn = host.functions.get('getfarms');
    expect(fn?.callback).toBe(handler);
    expect(fn?.metadata.name).toBe('getFarms');
    const bindings = Object.values(fn!.metadata.bindings);
    expect(bindings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'httpTrigger',
          direction: 'in',
          route: 'v1/siex/farms',
          methods: ['GET'],
          authLevel: 'function',
        }),
        expect.objectContaining({ type: 'http', direction: 'out' }),
      ]),
    );
    expect(fn!.metadata.bindings.$return).toBeDefined();
  });

  it('captures app.storageQueue with its queue and connection', () => {
    const host = new FunctionsCoreHost();
    const { app } = loadLibrary(host);
    app.storageQueue('exportWorker', {
      queueName: 'export-jobs',
      connection: 'AzureWebJobsStorage',
      handler: async () => undefined,
    });
    const trigger = Object.values(host.functions.get('exportworker')!.metadata.bindings).find(
      (b) => b.direction === 'in',
    );
    expect(trigger).toEqual(
      expect.objectContaining({ type: 'queueTrigger', queueName: 'export-jobs', connection: 'AzureWebJobsStorage' }),
    );
  });

  it('refuses two functions with the same name (any case)', () => {
    const host = new FunctionsCoreHost();
    const { app } = loadLibrary(host);
    app.get('Same', async () => ({}));
    expect(() => app.get('same', async () => ({}))).toThrow(/already registered/);
  });

  it('allows registering and disposing functions only during start-up', () => {
    const host = new FunctionsCoreHost();
    const registration = host.module.registerFunction({ name: 'early', bindings: {} }, () => undefined);
    registration.dispose();
    expect(host.functions.size).toBe(0);
    const kept = host.module.registerFunction({ name: 'kept', bindings: {} }, () => undefined);
    host.finishStartup();
    expect(() => host.module.registerFunction({ name: 'late', bindings: {} }, () => undefined)).toThrow(
      /during app startup/,
    );
    expect(() => kept.dispose()).toThrow(/during app startup/);
  });

  it('registers hooks through app.hook and removes them on dispose', () => {
    const host = new FunctionsCoreHost();
    const { app } = loadLibrary(host);
    const pre = app.hook.preInvocation(() => undefined);
    app.hook.postInvocation(() => undefined);
    app.hook.appStart(() => undefined);
    app.hook.appTerminate(() => undefined);
    app.hook.log(() => undefined);
    expect(host.hooks.preInvocation).toHaveLength(1);
    expect(host.hooks.log).toHaveLength(1);
    pre.dispose();
    expect(host.hooks.preInvocation).toHaveLength(0);
    expect(host.hooks.postInvocation).toHaveLength(1);
  });

  it('rejects unknown hook names with a RangeError, as the worker does', () => {
    const host = new FunctionsCoreHost();
    expect(() => host.module.registerHook('sometimes', () => undefined)).toThrow(RangeError);
  });

  it('sends the library system log through its log function', () => {
    const seen: string[] = [];
    const host = new FunctionsCoreHost((level, category, message) => seen.push(`${level}/${category}/${message}`));
    host.module.log('warning', 'system', 'careful');
    expect(seen).toEqual(['warning/system/careful']);
  });

  it('exposes a Disposable that runs once and combines others', () => {
    const calls: string[] = [];
    const { Disposable: CoreDisposable } = new FunctionsCoreHost().module;
    const a = new CoreDisposable(() => calls.push('a'));
    const both = Disposable.from(a, new Disposable(() => calls.push('b')));
    both.dispose();
    both.dispose();
    a.dispose();
    expect(calls).toEqual(['a', 'b']);
  });
});
