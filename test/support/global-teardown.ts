/** Set by global-setup.ts. */
const STACK_KEY = '__siexLocalStack';

/** Stops the stack global-setup.ts started: the gateway first, then Azurite; nothing is left running. */
export default async function globalTeardown(): Promise<void> {
  const stack = (globalThis as Record<string, unknown>)[STACK_KEY] as { stop(): Promise<void> } | undefined;
  delete (globalThis as Record<string, unknown>)[STACK_KEY];
  await stack?.stop();
}
