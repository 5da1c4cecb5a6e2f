/**
 * Per-key request rate limiting (contract §3: requests per minute per plan).
 *
 * Algorithm: a **sliding-window log** kept in a fixed ring buffer per key (one `Float64Array` of
 * `limit` timestamps). A request at `now` is admitted when fewer than `limit` admitted requests lie
 * in `(now - 60 s, now]`, i.e. when the ring is not full or its oldest entry is at least 60 s old;
 * the admitted request then overwrites that oldest slot. So:
 * - it is exact: no 60 s window, wherever it starts, ever holds more than `limit` admitted requests
 *   (a fixed window admits 2x across a boundary; GCRA with a burst of `limit` admits up to ~2x in a
 *   sliding 60 s window too, and GCRA without burst forbids any burst at all);
 * - a full minute's allowance may be used as a burst (what a client reading "60 per minute" expects);
 * - it costs O(1) time per request while the window is busy (one comparison, one store; a binary
 *   search over the ring after a pause), no allocation on the hot path, and
 *   O(limit) memory per active key — bounded by the plan (3,000 × 8 B = 24 KB for premium); keys
 *   idle for a whole window are dropped by a sweep, so memory follows the active keys only.
 * Rejected (429) requests are not recorded: a client hammering while limited does not extend its ban.
 * The clock is injectable (tests use a fake one).
 */

/** Length of the window, ms. */
export const WINDOW_MS = 60_000;

/** The outcome of one {@link RateLimiter.take}. */
export interface RateDecision {
  allowed: boolean;
  /** the plan's requests per window */
  limit: number;
  /** requests still admissible in the current window (after this one, when admitted) */
  remaining: number;
  /** seconds until a slot frees up (0 when the window holds nothing) — `RateLimit-Reset` */
  resetSeconds: number;
  /** seconds to wait before a retry can succeed (≥ 1; meaningful when `allowed` is false) — `Retry-After` */
  retryAfterSeconds: number;
}

interface Bucket {
  /** admission times (epoch ms), a ring; `head` is the oldest slot once `count === ring.length` */
  ring: Float64Array;
  head: number;
  count: number;
  /** time of the latest admission, for the idle sweep */
  last: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly clock: () => number;
  private sweptAt: number;

  constructor(opts: { clock?: () => number } = {}) {
    this.clock = opts.clock ?? Date.now;
    this.sweptAt = this.clock();
  }

  /** Number of keys currently tracked (tests, metrics). */
  get size(): number {
    return this.buckets.size;
  }

  /** Admits (and records) or rejects one request of `key` under `limit` requests per minute. */
  take(key: string, limit: number): RateDecision {
    const now = this.clock();
    if (now - this.sweptAt >= WINDOW_MS) this.sweep(now);
    let b = this.buckets.get(key);
    if (!b || b.ring.length !== limit) b = this.resize(key, b, limit);
    const ring = b.ring;
    // Count only entries still inside the window; older ones are as good as free slots.
    const inWindow = this.countInWindow(b, now);
    if (inWindow >= limit) {
      const wait = ring[b.head]! + WINDOW_MS - now;
      const secs = Math.max(1, Math.ceil(wait / 1000));
      return { allowed: false, limit, remaining: 0, resetSeconds: secs, retryAfterSeconds: secs };
    }
    ring[b.head] = now;
    b.head = (b.head + 1) % ring.length;
    if (b.count < ring.length) b.count += 1;
    b.last = now;
    const used = inWindow + 1;
    // The oldest in-window entry decides when the next slot frees.
    const oldest = this.oldestInWindow(b, used);
    const resetSeconds = Math.max(0, Math.ceil((oldest + WINDOW_MS - now) / 1000));
    return { allowed: true, limit, remaining: limit - used, resetSeconds, retryAfterSeconds: Math.max(1, resetSeconds) };
  }

  /** Entries of `b` newer than `now - WINDOW_MS`. Entries are in time order from the oldest slot. */
  private countInWindow(b: Bucket, now: number): number {
    if (b.count === 0) return 0;
    const len = b.ring.length;
    const start = b.count < len ? 0 : b.head;
    // Fast path: the oldest is still in the window → all are.
    if (b.ring[start]! > now - WINDOW_MS) return b.count;
    // Otherwise binary-search the first in-window entry (entries are sorted by time).
    let lo = 0;
    let hi = b.count; // number of entries
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (b.ring[(start + mid) % len]! > now - WINDOW_MS) hi = mid;
      else lo = mid + 1;
    }
    return b.count - lo;
  }

  /** Time of the oldest of the `used` newest entries. */
  private oldestInWindow(b: Bucket, used: number): number {
    const len = b.ring.length;
    const newest = (b.head - 1 + len) % len;
    return b.ring[(newest - (used - 1) + len * 2) % len]!;
  }

  /** A bucket for a new key, or a plan change: keeps the newest admissions that still fit. */
  private resize(key: string, old: Bucket | undefined, limit: number): Bucket {
    const b: Bucket = { ring: new Float64Array(limit), head: 0, count: 0, last: old?.last ?? -Infinity };
    if (old && old.count > 0) {
      const len = old.ring.length;
      const start = old.count < len ? 0 : old.head;
      const keep = Math.min(old.count, limit);
      for (let i = old.count - keep; i < old.count; i += 1) {
        b.ring[b.count] = old.ring[(start + i) % len]!;
        b.count += 1;
      }
      b.head = b.count % limit;
    }
    this.buckets.set(key, b);
    return b;
  }

  /** Forgets keys with no admission in the last window (their state is equivalent to a fresh one). */
  private sweep(now: number): void {
    this.sweptAt = now;
    for (const [key, b] of this.buckets) if (b.last <= now - WINDOW_MS) this.buckets.delete(key);
  }
}
