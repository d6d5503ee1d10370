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
    private readonly now: () => number = Date.now,
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
    // The version is read before the data: a change landing in between is caught by the next check.
    const version = await this.readVersion();
    if (!this.current || this.current.version !== version) this.current = { value: await this.load(), version };
    this.checkedAt = this.now();
  }
}
