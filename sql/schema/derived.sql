-- Derived state (data/state.duckdb): everything here is rebuildable from the journal alone.
-- Run as a script at start-up; every statement is idempotent. No parameters.
-- Money is DECIMAL(18,6) (sums widen to DECIMAL(38,6) and stay exact); prices and rates DOUBLE.

-- Every journal fill, same columns as the Parquet files (server/journal/rows.ts).
CREATE TABLE IF NOT EXISTS fills (
  seq BIGINT NOT NULL, protocol VARCHAR NOT NULL, time TIMESTAMP NOT NULL, slot BIGINT NOT NULL,
  tx VARCHAR NOT NULL, event_index INTEGER NOT NULL, position_key VARCHAR NOT NULL,
  position_id BIGINT NOT NULL, address VARCHAR NOT NULL, market VARCHAR NOT NULL,
  market_variant VARCHAR, side VARCHAR NOT NULL, type VARCHAR NOT NULL,
  size_delta_usd DECIMAL(18,6) NOT NULL, position_size_usd DECIMAL(18,6) NOT NULL,
  collateral_delta_usd DECIMAL(18,6) NOT NULL, position_collateral_usd DECIMAL(18,6) NOT NULL,
  price DOUBLE NOT NULL, entry_price DOUBLE NOT NULL, pnl_delta_usd DECIMAL(18,6) NOT NULL,
  fee_usd DECIMAL(18,6) NOT NULL, borrowing_fee_usd DECIMAL(18,6), funding_fee_usd DECIMAL(18,6),
  liquidation_fee_usd DECIMAL(18,6), funding_earned_usd DECIMAL(18,6),
  fee_total_usd DECIMAL(18,6) NOT NULL, index_price DOUBLE NOT NULL,
  collateral_token VARCHAR, position_entry_price DOUBLE
);

-- Latest market snapshot per (protocol, market variant or market).
CREATE TABLE IF NOT EXISTS market_latest (
  time TIMESTAMP NOT NULL, protocol VARCHAR NOT NULL, market VARCHAR NOT NULL, market_variant VARCHAR,
  index_price DOUBLE NOT NULL, oi_long_usd DECIMAL(18,6) NOT NULL, oi_short_usd DECIMAL(18,6) NOT NULL,
  funding_rate_long DOUBLE NOT NULL, funding_rate_short DOUBLE NOT NULL,
  borrowing_rate_long DOUBLE NOT NULL, borrowing_rate_short DOUBLE NOT NULL, funding_rate_raw DOUBLE NOT NULL,
  cum_borrowing_long DOUBLE NOT NULL, cum_borrowing_short DOUBLE NOT NULL,
  cum_funding_paid_long DOUBLE NOT NULL, cum_funding_paid_short DOUBLE NOT NULL,
  cum_funding_earned_long DOUBLE NOT NULL, cum_funding_earned_short DOUBLE NOT NULL
);

-- Latest position snapshot per lifecycle (position_id).
CREATE TABLE IF NOT EXISTS position_latest (
  time TIMESTAMP NOT NULL, protocol VARCHAR NOT NULL, position_id BIGINT NOT NULL, position_key VARCHAR NOT NULL,
  size_usd DECIMAL(18,6) NOT NULL, collateral_usd DECIMAL(18,6) NOT NULL,
  unsettled_borrowing_usd DECIMAL(18,6) NOT NULL, unsettled_funding_usd DECIMAL(18,6) NOT NULL,
  claimable_funding_usd DECIMAL(18,6) NOT NULL, mark_price DOUBLE NOT NULL, liquidation_price DOUBLE,
  source VARCHAR NOT NULL
);

-- One row per lifecycle (open → close/liquidation of one on-chain position).
CREATE TABLE IF NOT EXISTS lifecycles (
  position_id BIGINT NOT NULL, protocol VARCHAR NOT NULL, position_key VARCHAR NOT NULL,
  address VARCHAR NOT NULL, market VARCHAR NOT NULL, market_variant VARCHAR, side VARCHAR NOT NULL,
  status VARCHAR NOT NULL,                       -- open | closed | liquidated
  opened_at TIMESTAMP NOT NULL, closed_at TIMESTAMP, last_fill_at TIMESTAMP NOT NULL,
  open_tx VARCHAR NOT NULL, close_tx VARCHAR,
  entry_price DOUBLE NOT NULL, exit_price DOUBLE,
  size_usd DECIMAL(18,6) NOT NULL,               -- after the last fill (0 once terminal)
  collateral_usd DECIMAL(18,6) NOT NULL,         -- after the last fill
  max_size_usd DECIMAL(18,6) NOT NULL, max_collateral_usd DECIMAL(18,6) NOT NULL,
  max_leverage DOUBLE NOT NULL,
  volume_usd DECIMAL(38,6) NOT NULL,             -- Σ |size delta| of non-liquidation fills
  realized_pnl_usd DECIMAL(38,6) NOT NULL, fees_usd DECIMAL(38,6) NOT NULL,
  liquidation_fees_usd DECIMAL(38,6) NOT NULL, funding_fees_usd DECIMAL(38,6) NOT NULL,
  borrowing_fees_usd DECIMAL(38,6) NOT NULL, funding_earned_usd DECIMAL(38,6) NOT NULL,
  net_pnl_usd DECIMAL(38,6) NOT NULL,
  fill_count INTEGER NOT NULL, first_seq BIGINT NOT NULL, last_seq BIGINT NOT NULL
);

-- The lifecycles whose status is open (a few thousand rows), their columns plus the index price on
-- their last fill: open-position reads (`GET /v1/alpha/open-positions/search`,
-- `GET /v1/alpha/open-positions/stats` and `GET /v1/alpha/positions/{address}/{id}`) scan these instead
-- of every lifecycle and need no join with `fills`.
CREATE TABLE IF NOT EXISTS open_lifecycles AS SELECT *, 0::DOUBLE AS last_index_price FROM lifecycles LIMIT 0;
-- The position_latest rows of those open lifecycles, so open-position reads join a few thousand
-- rows instead of one per lifecycle ever. Kept by both the fill steps (a lifecycle opens or ends)
-- and the position-snapshot steps (a new latest snapshot).
CREATE TABLE IF NOT EXISTS open_position_latest AS SELECT * FROM position_latest LIMIT 0;

-- One row per (protocol, address).
CREATE TABLE IF NOT EXISTS accounts (
  protocol VARCHAR NOT NULL, address VARCHAR NOT NULL,
  trades INTEGER NOT NULL, wins INTEGER NOT NULL, losses INTEGER NOT NULL, win_rate DOUBLE NOT NULL,
  volume_usd DECIMAL(38,6) NOT NULL, net_pnl_usd DECIMAL(38,6) NOT NULL,
  positions INTEGER NOT NULL, open_positions INTEGER NOT NULL,
  first_trade_at TIMESTAMP NOT NULL, last_trade_at TIMESTAMP NOT NULL,
  realized_pnl_usd DECIMAL(38,6) NOT NULL, fees_usd DECIMAL(38,6) NOT NULL,
  funding_fees_usd DECIMAL(38,6) NOT NULL, funding_earned_usd DECIMAL(38,6) NOT NULL,
  borrowing_fees_usd DECIMAL(38,6) NOT NULL, liquidation_fees_usd DECIMAL(38,6) NOT NULL,
  avg_leverage DOUBLE NOT NULL, max_leverage DOUBLE NOT NULL,
  avg_position_size_usd DOUBLE NOT NULL, max_position_size_usd DECIMAL(18,6) NOT NULL,
  avg_position_duration_hours DOUBLE,
  open_notional_usd DECIMAL(38,6) NOT NULL,
  markets_traded VARCHAR[] NOT NULL, market_variants_traded VARCHAR[] NOT NULL,
  -- exact sums behind the averages, so a batch adds its changes instead of re-reading every
  -- lifecycle of the account (sql/derive/accounts-stage.sql); not served
  leverage_sum DECIMAL(38,12) NOT NULL,          -- Σ max_leverage over positions
  size_sum DECIMAL(38,6) NOT NULL,               -- Σ max_size_usd over positions
  hold_ms_sum BIGINT NOT NULL                    -- Σ closed_at - opened_at (ms) over trades
);

-- Every (protocol, market, market variant) the journal has a fill of: a handful of rows that
-- market lists and parameter checks read instead of scanning fills or lifecycles.
CREATE TABLE IF NOT EXISTS markets (protocol VARCHAR NOT NULL, market VARCHAR NOT NULL, market_variant VARCHAR);

-- 5-minute fill rollup per (protocol, market variant or market). OI deltas let history endpoints
-- reconstruct open interest from fills where no market snapshot exists.
CREATE TABLE IF NOT EXISTS rollup_5m (
  protocol VARCHAR NOT NULL, market VARCHAR NOT NULL, market_variant VARCHAR, bucket TIMESTAMP NOT NULL,
  fill_count INTEGER NOT NULL,
  volume_usd DECIMAL(38,6) NOT NULL, fees_usd DECIMAL(38,6) NOT NULL,
  oi_long_delta_usd DECIMAL(38,6) NOT NULL, oi_short_delta_usd DECIMAL(38,6) NOT NULL,
  liq_count INTEGER NOT NULL, liq_long_usd DECIMAL(38,6) NOT NULL, liq_short_usd DECIMAL(38,6) NOT NULL,
  liq_fees_usd DECIMAL(38,6) NOT NULL
);

-- 5-minute OI from market snapshots: the last snapshot in each bucket.
CREATE TABLE IF NOT EXISTS oi_snapshot_5m (
  protocol VARCHAR NOT NULL, market VARCHAR NOT NULL, market_variant VARCHAR, bucket TIMESTAMP NOT NULL,
  time TIMESTAMP NOT NULL, oi_long_usd DECIMAL(18,6) NOT NULL, oi_short_usd DECIMAL(18,6) NOT NULL
);

-- 5-minute OHLC of each market's index price, per source: src 1 = market snapshots (every variant
-- of the market), src 0 = the index price fills carry (GET /v1/{protocol}/prices/history reads
-- whole buckets here; fills count only before the market's first snapshot, decided at read). The
-- keys of the first and last observation (time in epoch µs, then a snapshot's variant or a fill's
-- seq; one snapshot per variant and instant) let a batch merge into a kept bucket in any order and
-- let a read combine buckets exactly as the raw observations would (sql/derive/price-*.sql).
CREATE TABLE IF NOT EXISTS price_5m (
  protocol VARCHAR NOT NULL, market VARCHAR NOT NULL, src INTEGER NOT NULL, bucket TIMESTAMP NOT NULL,
  open DOUBLE NOT NULL, high DOUBLE NOT NULL, low DOUBLE NOT NULL, close DOUBLE NOT NULL,
  observations INTEGER NOT NULL,
  first_us BIGINT NOT NULL, first_k VARCHAR NOT NULL, first_seq BIGINT NOT NULL,
  last_us BIGINT NOT NULL, last_k VARCHAR NOT NULL, last_seq BIGINT NOT NULL
);

-- Hourly and daily levels of price_5m, same columns and keys: each row is the aggregate of the
-- finer level's rows of its hour / day (first / last by their keys, extremes, observations
-- summed), recomputed whenever a batch touches that hour or day (sql/derive/price-1h-*.sql,
-- price-1d-*.sql), so it always equals a rebuild's. A long window of hourly or daily candles reads
-- these instead of every 5-minute row.
CREATE TABLE IF NOT EXISTS price_1h AS SELECT * FROM price_5m LIMIT 0;
CREATE TABLE IF NOT EXISTS price_1d AS SELECT * FROM price_5m LIMIT 0;

-- Coarser levels of the two 5-minute tables, so that a history window reads whole days
-- and hours instead of every 5-minute row, and folds everything before the window into one row per
-- variant: rollup_1h / rollup_1d carry every rollup_5m column summed per hour / day (the daily rows
-- from the hourly ones); oi_snapshot_1h / oi_snapshot_1d are the hour's / day's last snapshot and
-- whether any snapshot in it had OI > 0. Each row is recomputed from the finer rows whenever a
-- batch touches its hour or day (sql/derive/rollup-1h-*.sql, rollup-1d-*.sql, oi-snapshot-1h-*.sql,
-- oi-snapshot-1d-*.sql), so it always equals their aggregate.
CREATE TABLE IF NOT EXISTS rollup_1h AS SELECT * FROM rollup_5m LIMIT 0;
CREATE TABLE IF NOT EXISTS rollup_1d AS SELECT * FROM rollup_5m LIMIT 0;
CREATE TABLE IF NOT EXISTS oi_snapshot_1d (
  protocol VARCHAR NOT NULL, market VARCHAR NOT NULL, market_variant VARCHAR, bucket TIMESTAMP NOT NULL,
  time TIMESTAMP NOT NULL, oi_long_usd DECIMAL(18,6) NOT NULL, oi_short_usd DECIMAL(18,6) NOT NULL,
  has_oi BOOLEAN NOT NULL
);
CREATE TABLE IF NOT EXISTS oi_snapshot_1h AS SELECT * FROM oi_snapshot_1d LIMIT 0;

-- Hourly funding: count of the snapshots in each hour and the sums of their served net rates,
-- as exact decimals so that batches merge into a bucket in any order to the same value (the
-- API averages: sum / snapshots).
CREATE TABLE IF NOT EXISTS funding_1h (
  protocol VARCHAR NOT NULL, market VARCHAR NOT NULL, market_variant VARCHAR, bucket TIMESTAMP NOT NULL,
  snapshots INTEGER NOT NULL, rate_long_sum DECIMAL(38,20) NOT NULL, rate_short_sum DECIMAL(38,20) NOT NULL
);

-- Every liquidation fill (the columns `GET /v1/alpha/liquidations/search` serves), in seq order:
-- liquidation search reads these ~1 % of the fills instead of scanning `fills`.
CREATE TABLE IF NOT EXISTS liquidations (
  seq BIGINT NOT NULL, protocol VARCHAR NOT NULL, time TIMESTAMP NOT NULL, tx VARCHAR NOT NULL,
  position_id BIGINT NOT NULL, address VARCHAR NOT NULL, market VARCHAR NOT NULL, market_variant VARCHAR,
  side VARCHAR NOT NULL, size_delta_usd DECIMAL(18,6) NOT NULL, collateral_delta_usd DECIMAL(18,6) NOT NULL,
  price DOUBLE NOT NULL, entry_price DOUBLE NOT NULL, pnl_delta_usd DECIMAL(18,6) NOT NULL,
  liquidation_fee_usd DECIMAL(18,6)
);

-- Every fill's stream-frame columns again, inserted per batch in (protocol, address, time, seq)
-- order, so a wallet's fills (GET /v1/{protocol}/fills with `address`) sit in a few row groups
-- that zone maps on `address` find, instead of a scan of its whole active span in `fills`.
CREATE TABLE IF NOT EXISTS fills_by_address AS
SELECT seq, protocol, position_id, address, market, market_variant, side, time, type, size_delta_usd,
       position_size_usd, collateral_delta_usd, price, entry_price, pnl_delta_usd, fee_usd,
       borrowing_fee_usd, funding_fee_usd, liquidation_fee_usd, fee_total_usd, tx
FROM fills LIMIT 0;

-- Key/value bookkeeping: `derived_seq` = the journal seq the derived state includes.
CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL);
