/**
 * How the bucketed history queries (`GET /v1/alpha/{liquidations,open-interest,volume}/history`) split
 * a window over the derived tables: each piece is read from the coarsest table that covers it whole, as
 * one range [lo, hi) of epoch ms that the SQL binds as parameters (DuckDB folds a bound range into a
 * table filter, so zone maps on `bucket` / `time` skip the rest of the table; the same bounds as
 * expressions of the window made every execution bind and optimize a much larger plan).
 *
 * A coarse row never straddles an output bucket (the bucket is a multiple of its size, both
 * epoch-aligned), and each level holds exact sums (or the last snapshot) of the finer one.
 */
import type { HistoryWindow } from '../window.ts';
import { DAY_MS, FIVE_MINUTES_MS, HOUR_MS } from '../../lib/time.ts';

const floorTo = (x: number, step: number): number => Math.floor(x / step) * step;
const ceilTo = (x: number, step: number): number => Math.ceil(x / step) * step;

/** Query parameters `<name>_lo`, `<name>_hi` (epoch ms; lo >= hi means empty). */
export type RangeParams = Record<string, number>;
type Bounds<P extends string> = Record<`${P}_lo` | `${P}_hi`, number>;
/** The parameters of the sum pieces (sql/read/buckets/volume-history.sql, liquidations-history.sql). */
export type SumPieces = Bounds<'d' | 'h1' | 'h2' | 'm1' | 'm2' | 'f1' | 'f2'>;
/** The parameters of the open-interest pieces (sql/read/buckets/open-interest-history.sql), plus `lo`. */
export type OiPieces = Bounds<'wd' | 'wh' | 'wm' | 'bh' | 'bm' | 'tail'> & { lo: number; w_end: number; b: number; bd_hi: number };

function range(out: RangeParams, name: string, lo: number, hi: number): void {
  out[`${name}_lo`] = lo;
  out[`${name}_hi`] = Math.max(lo, hi);
}

/**
 * The pieces of [from, to) for sums (volume, liquidations: sql/read/buckets/volume-history.sql):
 *  - `d`: whole days [ceil_1d(from), floor_1d(to)), when the bucket is whole days;
 *  - `h1`, `h2`: whole hours of [ceil_1h(from), floor_1h(to)) before / after those days, when the
 *    bucket is whole hours (1h, 4h, 1d);
 *  - `m1`, `m2`: whole 5-minute buckets of [ceil_5m(from), floor_5m(to)) before / after those hours;
 *  - `f1`, `f2`: the partial 5-minute pieces at either edge, from the raw fills.
 * Together they partition [from, to) exactly.
 */
export function sumPieces(from: number, to: number, bucketMs: number): SumPieces {
  const a5 = ceilTo(from, FIVE_MINUTES_MS);
  const b5 = floorTo(to, FIVE_MINUTES_MS);
  const aH = ceilTo(from, HOUR_MS);
  const bH = floorTo(to, HOUR_MS);
  const aD = ceilTo(from, DAY_MS);
  const bD = floorTo(to, DAY_MS);
  const hours = bucketMs % HOUR_MS === 0 && aH < bH;
  const days = bucketMs % DAY_MS === 0 && aD < bD;
  const out: RangeParams = {};
  range(out, 'd', days ? aD : 0, days ? bD : 0);
  range(out, 'h1', hours ? aH : 0, hours ? (days ? aD : bH) : 0);
  range(out, 'h2', hours && days ? bD : 0, hours && days ? bH : 0);
  range(out, 'm1', a5, hours ? aH : b5);
  range(out, 'm2', hours ? bH : b5, b5);
  range(out, 'f1', from, Math.min(a5, to));
  range(out, 'f2', Math.max(b5, a5), to);
  return out as SumPieces; // every range of SumPieces is set above
}

/**
 * The pieces of an open-interest window (sql/read/buckets/open-interest-history.sql): with lo = the bucket
 * of `from`, w_end = min(to, now) and hi = the end of the bucket holding w_end,
 *  - inside the window `wd` [lo, c_d) whole days, `wh` [c_d, c_h) whole hours, `wm` [c_h, hi)
 *    5-minute rows, where c_d = max(lo, floor_1d(w_end)) when the bucket is whole days (else lo)
 *    and c_h = max(lo, floor_1h(w_end)) when it is whole hours (else lo): every coarse piece ends
 *    by w_end, so all its snapshots precede every evaluation point after it;
 *  - before the window `bd` [-∞, floor_1d(lo)) days, `bh` [floor_1d(lo), floor_1h(lo)) hours,
 *    `bm` [floor_1h(lo), lo) 5-minute rows;
 *  - `tail` [floor_5m(w_end), w_end): the raw fills of the running 5 minutes at w_end;
 * plus `lo`, `w_end` and `b` (the bucket size).
 */
export function oiPieces(w: HistoryWindow): OiPieces {
  const b = w.bucketMs;
  const lo = floorTo(w.from, b);
  const wEnd = Math.min(w.to, w.now);
  const hi = floorTo(wEnd, b) + b;
  const cD = b % DAY_MS === 0 ? Math.max(lo, floorTo(wEnd, DAY_MS)) : lo;
  const cH = b % HOUR_MS === 0 ? Math.max(lo, floorTo(wEnd, HOUR_MS)) : lo;
  const out: RangeParams = { lo, w_end: wEnd, b };
  range(out, 'wd', lo, cD);
  range(out, 'wh', cD, cH);
  range(out, 'wm', cH, hi);
  out.bd_hi = floorTo(lo, DAY_MS);
  range(out, 'bh', floorTo(lo, DAY_MS), floorTo(lo, HOUR_MS));
  range(out, 'bm', floorTo(lo, HOUR_MS), lo);
  range(out, 'tail', floorTo(wEnd, FIVE_MINUTES_MS), wEnd);
  return out as OiPieces; // every range of OiPieces is set above
}
