/**
 * Retry waits without waiting: setTimeout and clearTimeout are faked, everything else (promises, setImmediate,
 * AbortSignal.timeout, Date) stays real, so a time-out still happens in real time while a backoff of seconds passes
 * at once. `settle` runs the fake timers until the promise ends.
 */
export function fakeRetryWaits(): void {
  jest.useFakeTimers({
    doNotFake: [
      'Date',
      'hrtime',
      'nextTick',
      'performance',
      'queueMicrotask',
      'requestAnimationFrame',
      'cancelAnimationFrame',
      'requestIdleCallback',
      'cancelIdleCallback',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
    ],
  });
}

export async function settle<T>(promise: Promise<T>): Promise<T> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  while (!done) {
    if (jest.getTimerCount() > 0) await jest.advanceTimersToNextTimerAsync();
    // Nothing fake pending: the promise waits on something real (a time-out, a socket).
    else await new Promise((resolve) => setImmediate(resolve));
  }
  return promise;
}
