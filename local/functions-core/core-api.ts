import { Disposable } from './disposable';
import {
  FunctionCallback,
  FunctionMetadata,
  HookCallback,
  HookName,
  ProgrammingModel,
  RpcLogCategory,
  RpcLogLevel,
} from './types';

/** A function as the app registered it: the metadata `app.*` built and the handler to call. */
export interface RegisteredFunction {
  metadata: FunctionMetadata;
  callback: FunctionCallback;
}

/** Where logs that reach the core module end up (the runner prints them). */
type LogSink = (level: RpcLogLevel, category: RpcLogCategory, message: string, invocationId?: string) => void;

const HOOK_NAMES: readonly HookName[] = ['appStart', 'appTerminate', 'preInvocation', 'postInvocation', 'log'];

/** The members `@azure/functions` reads from `require('@azure/functions-core')`. */
export interface FunctionsCoreModule {
  readonly version: string;
  readonly hostVersion: string;
  registerFunction(metadata: FunctionMetadata, callback: FunctionCallback): Disposable;
  registerHook(hookName: string, callback: HookCallback): Disposable;
  setProgrammingModel(model: ProgrammingModel): void;
  getProgrammingModel(): ProgrammingModel | undefined;
  log(level: RpcLogLevel, category: RpcLogCategory, message: string): void;
  Disposable: typeof Disposable;
}

/**
 * The runner's side of the worker: it owns what the app registers (functions, hooks, programming model) and exposes
 * it as the `@azure/functions-core` module object (`module`). One instance per loaded app, so tests can make several.
 * Rules follow the worker: functions only during start-up, unique names, hook names from a closed list (the worker
 * throws a RangeError for others, which the library turns into "log hooks need a newer host").
 */
export class FunctionsCoreHost {
  readonly functions = new Map<string, RegisteredFunction>();
  readonly hooks: Record<HookName, HookCallback[]> = {
    appStart: [],
    appTerminate: [],
    preInvocation: [],
    postInvocation: [],
    log: [],
  };
  /** Shared by every hook of the app (`appHookData`); `appStartHookData` is the app-start/terminate `hookData`. */
  readonly appHookData: Record<string, unknown> = {};
  readonly appStartHookData: Record<string, unknown> = {};
  programmingModel?: ProgrammingModel;
  #startupFinished = false;
  #logSink: LogSink;
  readonly module: FunctionsCoreModule;

  constructor(logSink: LogSink = () => undefined) {
    this.#logSink = logSink;
    this.module = {
      version: '3.10.1-siex-local',
      hostVersion: '4.1040.0-siex-local',
      registerFunction: (metadata, callback) => this.#registerFunction(metadata, callback),
      registerHook: (hookName, callback) => this.#registerHook(hookName, callback),
      setProgrammingModel: (model) => {
        this.programmingModel = model;
      },
      getProgrammingModel: () => this.programmingModel,
      log: (level, category, message) => this.log(level, category, message),
      Disposable,
    };
  }

  setLogSink(sink: LogSink): void {
    this.#logSink = sink;
  }

  /** After this, registering or disposing a function throws, as in the worker once the host has indexed the app. */
  finishStartup(): void {
    this.#startupFinished = true;
  }

  get startupFinished(): boolean {
    return this.#startupFinished;
  }

  log(level: RpcLogLevel, category: RpcLogCategory, message: string, invocationId?: string): void {
    this.#logSink(level, category, message, invocationId);
  }

  #registerFunction(metadata: FunctionMetadata, callback: FunctionCallback): Disposable {
    if (this.#startupFinished) throw new Error('A function can only be registered during app startup.');
    if (!metadata || typeof metadata.name !== 'string' || !metadata.name) {
      throw new Error('registerFunction: metadata.name is required');
    }
    if (typeof callback !== 'function') throw new Error(`registerFunction: "${metadata.name}" has no handler`);
    const key = metadata.name.toLowerCase();
    // The host refuses an app with two functions of the same name (names are case-insensitive there).
    if (this.functions.has(key)) throw new Error(`A function named "${metadata.name}" is already registered.`);
    this.functions.set(key, { metadata, callback });
    return new Disposable(() => {
      if (this.#startupFinished) throw new Error('A function can only be disposed during app startup.');
      this.functions.delete(key);
    });
  }

  #registerHook(hookName: string, callback: HookCallback): Disposable {
    if (!(HOOK_NAMES as readonly string[]).includes(hookName)) {
      throw new RangeError(`Unrecognized hook "${hookName}"`);
    }
    if (typeof callback !== 'function') throw new TypeError(`registerHook("${hookName}"): callback must be a function`);
    const list = this.hooks[hookName as HookName];
    list.push(callback);
    return new Disposable(() => {
      const i = list.indexOf(callback);
      if (i >= 0) list.splice(i, 1);
    });
  }
}
