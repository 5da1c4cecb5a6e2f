/**
 * Binary search shared by the in-memory working sets (server/read/accounts/address-prefix-index.ts,
 * funding-index.ts, lifecycle-segment.ts).
 */

/** The index of the first of ascending `sorted` that is >= `x` (its length when none is). */
export function lowerBound<T extends number | string>(sorted: ArrayLike<T>, x: T): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
