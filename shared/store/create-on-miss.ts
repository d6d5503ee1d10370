import type { TableClient } from '@azure/data-tables';
import { isRestError } from './azure-sdk';

/**
 * Whether a storage call failed because its table does not exist. The service names it in `x-ms-error-code`, which
 * the SDK gives as `code` for a transaction and as `details.errorCode` for the other calls.
 */
export function isTableNotFound(e: unknown): boolean {
  if (!isRestError(e, 404)) return false;
  const { code, details } = e as { code?: unknown; details?: { errorCode?: unknown } };
  return code === 'TableNotFound' || details?.errorCode === 'TableNotFound';
}

/** The TableClient calls that return a promise and change or read entities. */
const CALLS = new Set<string | symbol>([
  'getEntity',
  'createEntity',
  'upsertEntity',
  'updateEntity',
  'deleteEntity',
  'submitTransaction',
]);

type Listing = ReturnType<TableClient['listEntities']>;

/**
 * `client`, taking its table to exist: a call the service refuses with TableNotFound runs `create` and is tried once
 * more. A table exists for the rest of an account's life once made, so asking first (a `createTable` round trip per
 * table and process, before the table's first call) would make every cold start's first request wait for nothing
 * after the first; a call on a missing table did nothing, so trying it again is safe. A listing is tried again only
 * when it failed before yielding anything (a missing table fails on its first page).
 */
export function createOnMiss(client: TableClient, create: () => Promise<void>): TableClient {
  async function retried<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (e) {
      if (!isTableNotFound(e)) throw e;
      await create();
      return call();
    }
  }
  async function* again<T>(source: () => AsyncIterable<T>): AsyncGenerator<T> {
    let yielded = false;
    try {
      for await (const item of source()) {
        yielded = true;
        yield item;
      }
    } catch (e) {
      if (yielded || !isTableNotFound(e)) throw e;
      await create();
      yield* source();
    }
  }
  const listEntities = (...args: Parameters<TableClient['listEntities']>): Listing => {
    const items = again(() => client.listEntities(...args));
    return {
      next: () => items.next(),
      [Symbol.asyncIterator]() {
        return this;
      },
      byPage: (settings) => again(() => client.listEntities(...args).byPage(settings)),
    };
  };
  return new Proxy(client, {
    get(target, property) {
      if (property === 'listEntities') return listEntities;
      const value: unknown = Reflect.get(target, property, target);
      if (!CALLS.has(property) || typeof value !== 'function') return value;
      return (...args: unknown[]) =>
        retried(() => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
    },
  });
}
