import { RateLimiter } from '../../shared/clients/rate-limit';

function limiter(limit = 100, windowMs = 60_000) {
  const clock = { t: 1_000_000 };
  return { clock, limiter: new RateLimiter(limit, windowMs, () => clock.t) };
}

describe('RateLimiter (100 requests in any 60 s, per client)', () => {
  it('allows 100 requests in the window and refuses the 101st with the seconds until the oldest leaves', () => {
    const { clock, limiter: l } = limiter();
    for (let i = 0; i < 100; i++) {
      expect(l.take('a')).toBe(0);
      clock.t += 100; // 100 requests over 10 s
    }
    // the oldest request was at +0 s; now is +10 s: it leaves the window in 50 s.
    expect(l.take('a')).toBe(50);
  });

  it('rounds the wait up to whole seconds, never below 1', () => {
    const { clock, limiter: l } = limiter();
    for (let i = 0; i < 100; i++) l.take('a');
    clock.t += 58_500;
    expect(l.take('a')).toBe(2);
    clock.t += 1_499; // 1 ms before the oldest leaves
    expect(l.take('a')).toBe(1);
  });

  it('does not count refused requests: hammering while refused does not push the wait further', () => {
    const { clock, limiter: l } = limiter();
    for (let i = 0; i < 100; i++) l.take('a');
    for (let i = 0; i < 500; i++) expect(l.take('a')).toBeGreaterThan(0);
    clock.t += 60_000;
    expect(l.take('a')).toBe(0);
  });

  it('slides: a slot frees exactly when the request that took it is 60 s old', () => {
    const { clock, limiter: l } = limiter();
    for (let i = 0; i < 50; i++) l.take('a'); // 50 at t0
    clock.t += 30_000;
    for (let i = 0; i < 50; i++) expect(l.take('a')).toBe(0); // 50 at t0+30 s
    expect(l.take('a')).toBe(30);
    clock.t += 30_000; // t0+60 s: the first 50 have left, the second 50 have 30 s to go
    for (let i = 0; i < 50; i++) expect(l.take('a')).toBe(0);
    expect(l.take('a')).toBe(30);
    clock.t += 29_999;
    expect(l.take('a')).toBe(1);
    clock.t += 1;
    expect(l.take('a')).toBe(0);
  });

  it('never allows more than the limit in any window, whatever the arrival pattern', () => {
    const { clock, limiter: l } = limiter(10, 1_000);
    const allowed: number[] = [];
    let seed = 7;
    for (let i = 0; i < 2_000; i++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      clock.t += seed % 120; // irregular gaps of 0-119 ms
      if (l.take('a') === 0) allowed.push(clock.t);
    }
    for (let i = 10; i < allowed.length; i++) expect(allowed[i] - allowed[i - 10]).toBeGreaterThanOrEqual(1_000);
    expect(allowed.length).toBeGreaterThan(100);
  });

  it('keeps each client to its own budget', () => {
    const { limiter: l } = limiter();
    for (let i = 0; i < 100; i++) l.take('a');
    expect(l.take('a')).toBeGreaterThan(0);
    for (let i = 0; i < 100; i++) expect(l.take('b')).toBe(0);
    expect(l.take('b')).toBeGreaterThan(0);
  });
});
