/**
 * `load` run on the first call and its result kept for every later one: a module that costs time to load (an Azure
 * SDK, the app's handlers) is loaded where it is first needed, once. A promise is kept as it is, so concurrent first
 * calls share one load.
 */
export function onFirstUse<T>(load: () => T): () => T {
  let loaded: { value: T } | undefined;
  return () => (loaded ??= { value: load() }).value;
}
