import Module from 'node:module';
import { FunctionsCoreModule } from './core-api';

const CORE_MODULE_ID = '@azure/functions-core';

type RequireFn = (this: NodeJS.Module, id: string) => unknown;

/**
 * Makes `require('@azure/functions-core')` return `core` in this process, the way the worker provides its built-in
 * module: by wrapping `Module.prototype.require`, which every CommonJS `require` (including the one inside the
 * webpack bundle of `@azure/functions`) goes through. Returns a function that undoes it.
 *
 * Must run before the first `require('@azure/functions')`: the library caches the core module on first use.
 */
export function installCoreModule(core: FunctionsCoreModule): () => void {
  const proto = Module.prototype as unknown as { require: RequireFn };
  const original = proto.require;
  const patched: RequireFn = function (this: NodeJS.Module, id: string) {
    return id === CORE_MODULE_ID ? core : original.call(this, id);
  };
  proto.require = patched;
  return () => {
    if (proto.require === patched) proto.require = original;
  };
}
