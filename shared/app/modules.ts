/**
 * Every module a use case starts, by name, each imported on the first call of an operation that needs it and kept by
 * the module system: the first request after a cold start starts its own operation's modules only, so a job status
 * never starts the registration rules or the catalogue (docs/architecture.md, "Cold start"). A record kind's own
 * modules come from its entry's loaders (shared/records/kind-entry.ts).
 */
export const MODULES = {
  farms: () => import('../farms/farm-service'),
  registration: () => import('../records/register-record'),
  batch: () => import('../records/batch-register'),
  amendment: () => import('../records/amend-record'),
  deletion: () => import('../export/deletion-service'),
  reading: () => import('../records/read-record'),
  listing: () => import('../records/list-records'),
  exports: () => import('../export/export-service'),
  jobs: () => import('../export/job-outcome'),
  notebook: () => import('../register/notebook-service'),
  catalogue: () => import('../catalog/catalogue-service'),
};

type Loaded<T extends Record<string, () => Promise<unknown>>> = { [K in keyof T]: Awaited<ReturnType<T[K]>> };

/**
 * The per-operation loader over a table of modules: `needing(names, story)` is an operation that imports the modules
 * it names, all at once, then tells its story with them. Each operation names what it needs once, in one place.
 */
export function loaderOf<T extends Record<string, () => Promise<unknown>>>(table: T) {
  return function needing<K extends keyof T, A extends unknown[], R>(
    names: readonly K[],
    story: (modules: Pick<Loaded<T>, K>, ...args: A) => Promise<R>,
  ): (...args: A) => Promise<R> {
    return async (...args) => {
      const loaded = await Promise.all(names.map((name) => table[name]!()));
      return story(Object.fromEntries(names.map((name, i) => [name, loaded[i]])) as Pick<Loaded<T>, K>, ...args);
    };
  };
}

/** The loader of the core's modules. */
export const needing = loaderOf(MODULES);
