import { systemClock } from '../time/clock';

/**
 * Sliding-window limiter: at most `limit` requests in any `windowMs`. Each client keeps the times of its last `limit`
 * requests in a ring, so a refusal can say exactly when the oldest one leaves the window (Retry-After).
 */
export class RateLimiter {
  private readonly rings = new Map<string, { times: number[]; next: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = () => systemClock.now(),
  ) {}

  /** Counts the request and returns 0 when allowed, or the seconds to wait when over the limit (not counted). */
  take(clientId: string): number {
    const t = this.now();
    let ring = this.rings.get(clientId);
    if (!ring) {
      ring = { times: [], next: 0 };
      this.rings.set(clientId, ring);
    }
    if (ring.times.length < this.limit) {
      ring.times.push(t);
      return 0;
    }
    const oldest = ring.times[ring.next]!;
    if (t - oldest < this.windowMs) return Math.max(1, Math.ceil((oldest + this.windowMs - t) / 1000));
    ring.times[ring.next] = t;
    ring.next = (ring.next + 1) % this.limit;
    return 0;
  }
}
