/**
 * Calls `stop` once, on the first of SIGINT, SIGTERM or, for a process started with an IPC channel (by the local
 * stack), the parent going away for any reason: a local service never outlives the stack that started it.
 */
export function onStopSignal(stop: (reason: string) => void): void {
  let stopping = false;
  const once = (reason: string) => {
    if (stopping) return;
    stopping = true;
    stop(reason);
  };
  process.on('SIGINT', () => once('SIGINT'));
  process.on('SIGTERM', () => once('SIGTERM'));
  if (process.connected) process.on('disconnect', () => once('parent exited'));
}

/**
 * A stand-in's process (SIEX simulator, mail outbox, webhook receiver): starts it, or exits 1 naming what failed, and
 * stops it on the first stop signal. Returns the running service for its own ready lines.
 */
export async function serveUntilStopped<S extends { stop(): Promise<void> }>(
  name: string,
  start: () => Promise<S>,
): Promise<S> {
  let service: S;
  try {
    service = await start();
  } catch (err) {
    process.stderr.write(`${name} failed to start: ${(err as Error).message}\n`);
    process.exit(1);
  }
  onStopSignal(() => void service.stop().then(() => process.exit(0)));
  return service;
}
