/**
 * One value loaded on demand and refreshed in the background once it is older than the period: requests never wait
 * for a refresh after the first load, and a failed refresh keeps serving the last good value.
 */
export class RefreshingValue<T> {
  private current: { value: T; at: number } | undefined;
  private loading: Promise<T> | undefined;

  constructor(
    private readonly load: () => Promise<T>,
    private readonly periodMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async get(): Promise<T> {
    if (!this.current) return this.refresh();
    if (this.now() - this.current.at >= this.periodMs) this.refresh().catch(() => undefined);
    return this.current.value;
  }

  /** Loads now (sharing a load already under way). */
  refresh(): Promise<T> {
    this.loading ??= this.load().then(
      (value) => {
        this.current = { value, at: this.now() };
        this.loading = undefined;
        return value;
      },
      (e: unknown) => {
        this.loading = undefined;
        throw e;
      },
    );
    return this.loading;
  }
}
