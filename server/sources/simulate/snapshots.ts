/**
 * Market snapshot rows (every variant, every minute from `snapshotsFrom`) and the poll cadence of
 * position snapshots.
 *
 * A snapshot stamped minute m is the state at the start of that minute: after every fill with
 * time < m and before the fills of minute m (whose times are m + 1 s … m + 59 s). So the OI of a
 * snapshot equals the sum of open sizes replayed from fills strictly before its time, and the
 * cumulative factors are the ones fills of minute m settle against.
 */
import type { MarketSnapshot } from '../../journal/rows.ts';
import { MINUTE_MS, VARIANTS } from './markets.ts';
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
export function pushMarketSnapshots(m: number, pools: Pools, prices: PricePaths, out: MarketSnapshot[]): void {
  for (const def of VARIANTS) {
    const rt = pools.variants[def.idx]!;
    out.push({
      time: m,
      protocol: def.protocol,
      market: def.market,
      market_variant: def.variant,
      index_price: prices.price[def.assetIdx]!,
      oi_long_usd: rt.oiLong / 1e6,
      oi_short_usd: rt.oiShort / 1e6,
      funding_rate_long: rt.rFL - rt.rBL,
      funding_rate_short: rt.rFS - rt.rBS,
      borrowing_rate_long: rt.rBL,
      borrowing_rate_short: rt.rBS,
      funding_rate_raw: rt.raw,
      cum_borrowing_long: rt.cumBL,
      cum_borrowing_short: rt.cumBS,
      cum_funding_paid_long: rt.cumFPL,
      cum_funding_paid_short: rt.cumFPS,
      cum_funding_earned_long: rt.cumFEL,
      cum_funding_earned_short: rt.cumFES,
    });
  }
}
