/**
 * The response-cache bound of a history answer served from the in-memory mirror: what
 * the mirror knows about the journal just past a moving window's edges, so the bound needs no
 * query in the common cases (server/http/history-validity.ts asks; it runs
 * sql/api/window-fill-edges.sql only for what this cannot tell).
 *
 * A bound may come early, never late: an answer cached until an earlier instant is only dropped
 * sooner. So a 5-minute bucket that starts inside the range and holds fills gives its start (its
 * fills are at or after it); the bucket that holds the range's start gives the first fill the
 * answer itself read there (its partial edge), else it cannot tell.
 */
import { type VariantBuckets } from './variant-buckets.ts';
import { FIVE_MINUTES_MS } from '../../lib/time.ts';

/** See the file comment. */
export interface EdgeProbe {
  /** A time (epoch ms) at or before the first counted fill in scope in [lo, hi); null: none; undefined: not known here. */
  firstFill(lo: number, hi: number): number | null | undefined;
  /** sql/api/window-snapshot-enter.sql's answer: max(now, the first bucket whose last snapshot is at or after now); null: none. */
  snapshotEnter(now: number): number | null;
}

/**
 * The probe of `variants` (the answer's scope). `counted` marks the fills that matter to the
 * answer (every fill for 8 and 9; for 6 liquidations only: no other fill changes its sums).
 * `known`: for a partial bucket whose fills the answer read from its start `lo` to the bucket's
 * end, the first counted fill there (null: none).
 */
export function mirrorProbe(variants: readonly VariantBuckets[], counted: 'fill_count' | 'liq_count', known: ReadonlyMap<number, number | null>): EdgeProbe {
  const origin = variants[0]?.origin ?? 0;
  const has = (start: number): boolean => variants.some((v) => v.cell(counted, (start - origin) / FIVE_MINUTES_MS) > 0);
  return {
    firstFill(lo, hi) {
      for (let start = Math.floor(lo / FIVE_MINUTES_MS) * FIVE_MINUTES_MS; start < hi; start += FIVE_MINUTES_MS) {
        if (!has(start)) continue;
        if (start >= lo) return start;
        const first = known.get(lo);
        if (first !== null) return first; // a time, or undefined: its fills may lie either side of lo
      }
      return null;
    },
    snapshotEnter(now) {
      let enter: number | null = null;
      for (const v of variants) {
        for (let i = Math.max(0, Math.floor((now - origin) / FIVE_MINUTES_MS)); i < v.length; i++) {
          const start = origin + i * FIVE_MINUTES_MS;
          if (enter !== null && start >= enter) break;
          if (v.snapshotTimeAt(i) >= now) {
            enter = Math.max(now, start);
            break;
          }
        }
      }
      return enter;
    },
  };
}
