import { randomBytes, randomUUID } from 'node:crypto';
import { FunctionsCoreHost, RegisteredFunction } from '../functions-core/core-api';
import {
  CoreInvocationContext,
  HookCallback,
  InvocationState,
  RpcFunctionMetadata,
  RpcInvocationRequest,
  RpcInvocationResponse,
  RpcLogCategory,
  RpcLogLevel,
  RpcParameterBinding,
  RpcTypedData,
} from '../functions-core/types';
import { RunnerLogger, formatError } from './logger';

/** What a trigger source (HTTP server, queue listener) supplies for one invocation. */
interface InvocationInput {
  inputData: RpcParameterBinding[];
  triggerMetadata?: Record<string, RpcTypedData>;
  /** W3C `traceparent` of the caller, when there is one. */
  traceParent?: string;
}

interface ActiveInvocation {
  functionName: string;
  context?: unknown;
}

/**
 * A hook's context as the worker builds it: hookData, appHookData and invocationContext can be read but assigning
 * them throws; what `own` holds the hooks may change (inputs, result, error).
 */
function hookContext<T extends object>(readable: Record<string, () => unknown>, own: T): T {
  const context = {} as T;
  for (const [name, get] of Object.entries(readable)) {
    Object.defineProperty(context, name, {
      get,
      set: () => {
        throw new Error(`Cannot assign "${name}" because it is read-only.`);
      },
      enumerable: true,
      configurable: true,
    });
  }
  return Object.assign(context, own);
}

/**
 * Runs invocations the way the Node.js worker's InvocationHandler does, so the app sees exactly what it would see in
 * Azure: the programming model (`@azure/functions`) builds the `InvocationContext` and inputs from an RPC-shaped
 * request, pre-invocation hooks run, the handler is called through the model, post-invocation hooks run, then the
 * model converts the result into an RPC response. A handler error propagates after the post-invocation hooks.
 */
export class Invoker {
  readonly #host: FunctionsCoreHost;
  readonly #logger: RunnerLogger;
  readonly #active = new Map<string, ActiveInvocation>();
  #inLogHook = false;
  #idleWaiters: (() => void)[] = [];

  constructor(host: FunctionsCoreHost, logger: RunnerLogger) {
    this.#host = host;
    this.#logger = logger;
    host.setLogSink((level, category, message, invocationId) => this.#log(level, category, message, invocationId));
  }

  get inFlight(): number {
    return this.#active.size;
  }

  /** Resolves when no invocation is running (immediately if none is). */
  idle(): Promise<void> {
    if (this.#active.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  async invoke(fn: RegisteredFunction, input: InvocationInput): Promise<RpcInvocationResponse> {
    const model = this.#host.programmingModel;
    if (!model) throw new Error('No programming model was registered (the app never called app.*)');
    const invocationId = randomUUID();
    const functionName = fn.metadata.name;
    const active: ActiveInvocation = { functionName };
    this.#active.set(invocationId, active);
    try {
      return await this.#run(fn, input, invocationId, active);
    } finally {
      this.#active.delete(invocationId);
      if (this.#active.size === 0) for (const resolve of this.#idleWaiters.splice(0)) resolve();
    }
  }

  async #run(
    fn: RegisteredFunction,
    input: InvocationInput,
    invocationId: string,
    active: ActiveInvocation,
  ): Promise<RpcInvocationResponse> {
    const model = this.#host.programmingModel!;
    const metadata: RpcFunctionMetadata = {
      name: fn.metadata.name,
      functionId: fn.metadata.functionId ?? fn.metadata.name,
      bindings: fn.metadata.bindings,
      rawBindings: Object.entries(fn.metadata.bindings).map(([name, b]) => JSON.stringify({ ...b, name })),
      scriptFile: 'n/a',
    };
    const request: RpcInvocationRequest = {
      invocationId,
      functionId: metadata.functionId,
      inputData: input.inputData,
      triggerMetadata: input.triggerMetadata ?? {},
      traceContext: {
        traceParent: input.traceParent ?? `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`,
        traceState: '',
        attributes: {},
      },
    };
    const host = this.#host;
    const coreCtx: CoreInvocationContext = {
      invocationId,
      request,
      metadata,
      state: undefined as InvocationState | undefined,
      log: (level, category, message) => host.log(level, category, message, invocationId),
    };

    const invocationModel = model.getInvocationModel(coreCtx);
    const hookData: Record<string, unknown> = {};
    const { context, inputs: initialInputs } = await invocationModel.getArguments();
    active.context = context;

    const readable = {
      hookData: () => hookData,
      appHookData: () => host.appHookData,
      invocationContext: () => context,
    };
    const pre = hookContext(readable, { functionCallback: fn.callback, inputs: initialInputs });
    coreCtx.state = 'preInvocationHooks';
    try {
      await this.#runHooks(host.hooks.preInvocation, pre);
    } finally {
      coreCtx.state = undefined;
    }

    const outcome: { result: unknown; error: unknown } = { result: null, error: null };
    const post = hookContext(readable, { inputs: pre.inputs, ...outcome });
    coreCtx.state = 'invocation';
    try {
      post.result = await invocationModel.invokeFunction(context, pre.inputs, pre.functionCallback);
    } catch (err) {
      post.error = err;
    } finally {
      coreCtx.state = undefined;
    }

    coreCtx.state = 'postInvocationHooks';
    try {
      await this.#runHooks(host.hooks.postInvocation, post);
    } finally {
      coreCtx.state = undefined;
    }

    // The worker rethrows anything set as `error` (hooks may clear it to turn a failure into a success).
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrown as the hooks left it, as the worker does
    if (post.error !== null && post.error !== undefined) throw post.error;
    return invocationModel.getResponse(context, post.result);
  }

  async #runHooks(hooks: HookCallback[], context: object): Promise<void> {
    // A copy: a hook may dispose itself (or another) while the list is being walked.
    for (const hook of [...hooks]) await hook(context);
  }

  /** Every log of the app and the library lands here: log hooks first (they may rewrite it), then the console. */
  #log(level: RpcLogLevel, category: RpcLogCategory, message: string, invocationId?: string): void {
    const active = invocationId ? this.#active.get(invocationId) : undefined;
    const entry = { level, message, category };
    if (this.#host.hooks.log.length > 0 && !this.#inLogHook) {
      this.#inLogHook = true;
      try {
        const ctx = {
          hookData: {},
          appHookData: this.#host.appHookData,
          get level() {
            return entry.level;
          },
          set level(v: RpcLogLevel) {
            entry.level = v;
          },
          get message() {
            return entry.message;
          },
          set message(v: string) {
            entry.message = v;
          },
          category,
          invocationContext: active?.context,
        };
        for (const hook of [...this.#host.hooks.log]) hook(ctx);
      } catch (err) {
        this.#logger.error('a log hook threw', err);
      } finally {
        this.#inLogHook = false;
      }
    }
    this.#logger.app(entry.level, category, active?.functionName, entry.message);
  }

  /** For trigger sources: report a failed invocation the way the host's log would. */
  logFailure(functionName: string, err: unknown): void {
    this.#logger.app('error', 'system', functionName, `Executed '${functionName}' (Failed): ${formatError(err)}`);
  }
}
