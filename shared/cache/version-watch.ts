import { systemClock } from '../time/clock';
import { VersionedValue } from './versioned-value';

/**
 * Tells caches that what they hold may be stale: a version row is read at most once per period, and the listeners
 * are called when it changed. Whoever asks first after a period pays that one read, whether its lookup is then a hit
 * or a miss, so a cached miss costs what a cached hit costs.
 */
export class VersionWatch {
  private readonly listeners: (() => void)[] = [];
  private readonly version: VersionedValue<void>;

  constructor(readVersion: () => Promise<string>, periodMs: number, now: () => number = () => systemClock.now()) {
    this.version = new VersionedValue(
      readVersion,
      () => {
        for (const listener of this.listeners) listener();
        return Promise.resolve();
      },
      periodMs,
      now,
    );
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Resolves once the listeners have heard of every change older than one period. */
  check(): Promise<void> {
    return this.version.get();
  }
}
