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
