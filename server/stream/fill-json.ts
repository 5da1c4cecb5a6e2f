/**
 * The Fill of a data frame built from an appended fill in JS, for the live fan-out: the same
 * fields, order and values that `sql/stream/fills.sql` reads back from the derived state (which a
 * resume replays, and which REST serves), without a query per append.
 *
 * The journal and the derived state hold USD as DECIMAL(18,6), which DuckDB casts from the
 * source's double by rounding `x × 10⁶` half away from zero, and the SQL reads back as that
 * integer / 10⁶; times are stored in whole microseconds and served truncated to milliseconds.
 * {@link usd6} and {@link fillTime} do the same arithmetic (test/stream/stream-frames.test.ts checks them
 * against DuckDB on 200k values and live frames against replayed ones byte for byte).
 */
import type { Plain } from '../db/values.ts';
import { isoFromMs } from '../db/values.ts';
import type { Fill } from '../journal/rows.ts';

/** Rounds half away from zero, as DuckDB's double → DECIMAL / BIGINT casts do. */
function roundAway(v: number): number {
  return Math.sign(v) * Math.round(Math.abs(v));
}

/** A USD amount as the derived state serves it: DECIMAL(18,6) of the double, read back as a double. */
export function usd6(x: number): number {
  return roundAway(x * 1e6) / 1e6;
}

const usd6OrNull = (x: number | null): number | null => (x === null ? null : usd6(x));

/** A fill's time as the derived state serves it: whole µs (rounded), then truncated to ms, ISO. */
export function fillTime(ms: number): string {
  return isoFromMs(Math.trunc(roundAway(ms * 1000) / 1000));
}

/** The data-frame Fill of a fill the append path committed, in `sql/stream/fills.sql` order. */
export function fillRow(f: Fill): Record<string, Plain> {
  return {
    seq: f.seq,
    protocol: f.protocol,
    position_id: f.position_id,
    address: f.address,
    market: f.market,
    market_variant: f.market_variant,
    side: f.side,
    time: fillTime(f.time),
    type: f.type,
    size_delta_usd: usd6(f.size_delta_usd),
    position_size_usd: usd6(f.position_size_usd),
    collateral_delta_usd: usd6(f.collateral_delta_usd),
    price: f.price,
    entry_price: f.entry_price,
    pnl_delta_usd: usd6(f.pnl_delta_usd),
    fee_usd: usd6(f.fee_usd),
    borrowing_fee_usd: usd6OrNull(f.borrowing_fee_usd),
    funding_fee_usd: usd6OrNull(f.funding_fee_usd),
    liquidation_fee_usd: usd6OrNull(f.liquidation_fee_usd),
    fee_total_usd: usd6(f.fee_total_usd),
    tx: f.tx,
  };
}
