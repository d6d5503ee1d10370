/** What a global setup (global-setup.ts, unit-global-setup.ts) left to stop; both run in jest's main process. */
const KEY = '__siexGlobalSetup';

export function leaveForTeardown(stop: () => Promise<void>): void {
  (globalThis as Record<string, unknown>)[KEY] = stop;
}

/** Stops what the global setup started (the stack: the gateway first, then Azurite); nothing is left running. */
export default async function globalTeardown(): Promise<void> {
  const stop = (globalThis as Record<string, unknown>)[KEY] as (() => Promise<void>) | undefined;
  delete (globalThis as Record<string, unknown>)[KEY];
  await stop?.();
}
