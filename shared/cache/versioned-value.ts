import { systemClock } from '../time/clock';
import { randomUUID } from 'node:crypto';

/**
 * A value loaded from storage and kept in memory, revalidated at most once per period by reading a small version
 * marker: a reload happens only when the data changed, so a large catalog costs one point read per period, and a
 * change is seen by the first request after the period (immediately with a period of 0).
 */
export class VersionedValue<T> {
  private current: { value: T; version: string } | undefined;
  private checkedAt = -Infinity;
  private checking: Promise<void> | undefined;

  constructor(
    private readonly readVersion: () => Promise<string>,
    private readonly load: () => Promise<T>,
    private readonly periodMs: number,
    private readonly now: () => number = () => systemClock.now(),
    /**
     * For owners that name answers by the version (ETags): whether a version marker names data at rest (false while
     * the writer is changing the data). Given, a load is confirmed by reading the version again after it.
     */
    private readonly settled?: (version: string) => boolean,
  ) {}

  async get(): Promise<T> {
    return (await this.versioned()).value;
  }

  /**
   * The value with the version marker it was loaded under: answers derived from the value can name it (the catalogue
   * endpoints' ETags), and it changes whenever the data was reloaded.
   */
  async versioned(): Promise<{ value: T; version: string }> {
    if (this.current && this.now() - this.checkedAt < this.periodMs) return this.current;
    this.checking ??= this.revalidate().finally(() => {
      this.checking = undefined;
    });
    await this.checking;
    return this.current!;
  }

  private async revalidate(): Promise<void> {
    const version = await this.readVersion();
    if (!this.current || this.current.version !== version) {
      const value = await this.load();
      // Loaded while the data was being changed, it may be a mix no other process holds: it is named by no version
      // (answers derived from it share their name with no other answer) and reloaded at the next check.
      const atRest = !this.settled || (this.settled(version) && (await this.readVersion()) === version);
      this.current = {
        value,
        version: atRest ? version : `unsettled~${randomUUID()}`,
      };
    }
    this.checkedAt = this.now();
  }
}
