/**
 * Market snapshot rows (every variant, every minute from `snapshotsFrom`) and the poll cadence of
 * position snapshots.
 *
 * A snapshot stamped minute m is the state at the start of that minute: after every fill with
 * time < m and before the fills of minute m (whose times are m + 1 s … m + 59 s). So the OI of a
 * snapshot equals the sum of open sizes replayed from fills strictly before its time, and the
 * cumulative factors are the ones fills of minute m settle against.
 */
import type { MarketColumns } from './market-columns.ts';
import { VARIANTS } from './markets.ts';
import { MINUTE_MS } from '../../lib/time.ts';
import type { Pools } from './pools.ts';
import type { PricePaths } from './prices.ts';

/**
 * Poll snapshots (every open position re-marked) are written at 23:59 UTC each day from
 * `snapshotsFrom` on: exactly what the journal's retention keeps of a closed day (the last poll
 * per position per day), so history is not generated only to be compacted away (~70k rows in
 * the default run; 60 here would make them hourly, ~1.7M). Frequent re-marking of the open
 * positions is the service's full-refresh job, not the chain's.
 */
export const POLL_EVERY_MINUTES = 1440;

/** True when minute `m` carries poll snapshots. */
export function isPollMinute(m: number): boolean {
  // epoch minutes: hours and UTC days are aligned to multiples of 60 and 1440
  return (m / MINUTE_MS) % POLL_EVERY_MINUTES === POLL_EVERY_MINUTES - 1;
}

/** Appends one snapshot row per variant for minute `m`. */
export function pushMarketSnapshots(m: number, pools: Pools, prices: PricePaths, out: MarketColumns): void {
  const c = out.col;
  for (const def of VARIANTS) {
    const rt = pools.variants[def.idx]!;
    const i = out.row(def.idx);
    c.time![i] = m;
    c.index_price![i] = prices.price[def.assetIdx]!;
    c.oi_long_usd![i] = rt.oiLong / 1e6;
    c.oi_short_usd![i] = rt.oiShort / 1e6;
    c.funding_rate_long![i] = rt.rFL - rt.rBL;
    c.funding_rate_short![i] = rt.rFS - rt.rBS;
    c.borrowing_rate_long![i] = rt.rBL;
    c.borrowing_rate_short![i] = rt.rBS;
    c.funding_rate_raw![i] = rt.raw;
    c.cum_borrowing_long![i] = rt.cumBL;
    c.cum_borrowing_short![i] = rt.cumBS;
    c.cum_funding_paid_long![i] = rt.cumFPL;
    c.cum_funding_paid_short![i] = rt.cumFPS;
    c.cum_funding_earned_long![i] = rt.cumFEL;
    c.cum_funding_earned_short![i] = rt.cumFES;
    c.index_price_time![i] = m; // the price path's own minute: the simulated oracle publishes every minute
  }
}
