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
  collateral_token VARCHAR
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

-- The lifecycles whose status is open (a few thousand rows), their columns plus the index price
-- on their last fill: open-position reads (endpoints 16, 17, 18) scan these instead of every
-- lifecycle and need no join with `fills` (issue 7).
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
  markets_traded VARCHAR[] NOT NULL, market_variants_traded VARCHAR[] NOT NULL
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

-- Coarser levels of the two 5-minute tables (issue 7), so that a history window reads whole days
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

-- Every liquidation fill (the columns endpoint 5 serves), in seq order: liquidation search reads
-- these ~1 % of the fills instead of scanning `fills` (issue 7).
CREATE TABLE IF NOT EXISTS liquidations (
  seq BIGINT NOT NULL, protocol VARCHAR NOT NULL, time TIMESTAMP NOT NULL, tx VARCHAR NOT NULL,
  position_id BIGINT NOT NULL, address VARCHAR NOT NULL, market VARCHAR NOT NULL, market_variant VARCHAR,
  side VARCHAR NOT NULL, size_delta_usd DECIMAL(18,6) NOT NULL, collateral_delta_usd DECIMAL(18,6) NOT NULL,
  price DOUBLE NOT NULL, entry_price DOUBLE NOT NULL, pnl_delta_usd DECIMAL(18,6) NOT NULL,
  liquidation_fee_usd DECIMAL(18,6)
);

-- Key/value bookkeeping: `derived_seq` = the journal seq the derived state includes.
CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL);

-- Trailing-24 h activity per (protocol, market, market variant) over [now − 24 h, now), shared by
-- the stats endpoints (1 protocol-wide, 4 alpha markets, 21 beta markets): volume = |size delta|
-- of non-liquidation fills, fees = trading fees of all fills, liquidations = |size delta| of
-- liquidation fills (the liquidated notional). Argument: now_ms, epoch ms.
CREATE OR REPLACE MACRO activity_24h(now_ms) AS TABLE
  SELECT protocol, market, market_variant,
         coalesce(sum(abs(size_delta_usd)) FILTER (WHERE type <> 'liquidation'), 0) AS volume_usd,
         coalesce(sum(fee_usd), 0) AS fees_usd,
         coalesce(sum(abs(size_delta_usd)) FILTER (WHERE type = 'liquidation'), 0) AS liquidations_usd
  FROM fills
  WHERE time >= epoch_ms(now_ms - 86400000) AND time < epoch_ms(now_ms)
  GROUP BY ALL;

-- The live state of every open alpha lifecycle, shared by endpoints 16 and 17 (whose figures
-- must agree; a test checks it): the latest position snapshot when it is at least as new as the
-- lifecycle's last fill ("fresh"); otherwise (no snapshot yet, or a fill newer than it) the state
-- after the last fill: size and collateral of the lifecycle, unsettled amounts 0 (fees settle on
-- every fill), mark = the variant's latest index price when not older than that fill, else the
-- fill's own index price, liquidation price null, updated_at = the fill's time, source null.
-- unrealized_pnl_usd is rounded per row so that sums over rows are exact. No arguments.
CREATE OR REPLACE MACRO open_alpha_positions() AS TABLE
  WITH joined AS (
  SELECT l.position_id, l.market_variant, l.market, l.address, l.side, l.opened_at, l.entry_price,
         l.max_size_usd, l.max_collateral_usd, l.size_usd, l.collateral_usd, l.last_fill_at,
         p.time AS p_time, p.size_usd AS p_size, p.collateral_usd AS p_collateral,
         p.unsettled_borrowing_usd AS p_borrowing, p.unsettled_funding_usd AS p_funding,
         p.claimable_funding_usd AS p_claimable, p.mark_price AS p_mark, p.liquidation_price AS p_liq,
         p.source AS p_source, m.time AS m_time, m.index_price AS m_price, l.last_index_price AS f_price,
         coalesce(p.time >= l.last_fill_at, false) AS fresh
  FROM open_lifecycles l
  LEFT JOIN open_position_latest p ON p.protocol = l.protocol AND p.position_id = l.position_id
  LEFT JOIN market_latest m ON m.protocol = l.protocol AND m.market = l.market
        AND m.market_variant IS NOT DISTINCT FROM l.market_variant
  WHERE l.protocol = 'alpha' AND l.status = 'open'
),
state AS (
  SELECT position_id, market_variant, market, address, side, opened_at, entry_price,
         max_size_usd, max_collateral_usd,
         CASE WHEN fresh THEN p_size ELSE size_usd END AS current_size_usd,
         CASE WHEN fresh THEN p_collateral ELSE collateral_usd END AS current_collateral_usd,
         CASE WHEN fresh THEN p_borrowing ELSE 0 END AS unsettled_borrowing_usd,
         CASE WHEN fresh THEN p_funding ELSE 0 END AS unsettled_funding_usd,
         CASE WHEN fresh THEN p_claimable ELSE 0 END AS claimable_funding_usd,
         CASE WHEN fresh THEN p_mark WHEN m_time >= last_fill_at THEN m_price ELSE f_price END AS mark_price,
         CASE WHEN fresh THEN p_liq END AS liquidation_price,
         CASE WHEN fresh THEN p_time ELSE last_fill_at END AS updated_at,
         CASE WHEN fresh THEN p_source END AS source
  FROM joined
),
live AS (
  SELECT s.*,
         -- rounded per row, as an exact decimal, so that sums over rows equal the stats endpoint's
         round(s.current_size_usd::DOUBLE * (s.mark_price / s.entry_price - 1)
               * CASE WHEN s.side = 'short' THEN -1 ELSE 1 END, 6)::DECIMAL(38,6) AS unrealized_pnl_usd,
         s.current_size_usd::DOUBLE / nullif(s.current_collateral_usd, 0)::DOUBLE AS leverage,
         abs(s.mark_price - s.liquidation_price) / nullif(s.mark_price, 0) AS liq_proximity
  FROM state s
)
  SELECT * FROM live;

-- Alpha accounts in the API's Account shape (spec Account table, contract §6), shared by
-- endpoints 13 and 14: USD amounts rounded to 6 decimals; leverage, win rate and duration not
-- rounded; avg_position_duration_hours NULL while the account has no closed lifecycle. No arguments.
CREATE OR REPLACE MACRO alpha_accounts() AS TABLE
  SELECT a.address,
       a.trades,
       a.wins,
       a.losses,
       a.win_rate,
       round(a.volume_usd, 6)::DOUBLE AS volume_usd,
       round(a.net_pnl_usd, 6)::DOUBLE AS net_pnl_usd,
       a.positions,
       a.open_positions,
       a.first_trade_at,
       a.last_trade_at,
       round(a.realized_pnl_usd, 6)::DOUBLE AS realized_pnl_usd,
       round(a.fees_usd, 6)::DOUBLE AS fees_usd,
       round(a.funding_fees_usd, 6)::DOUBLE AS funding_fees_usd,
       round(a.funding_earned_usd, 6)::DOUBLE AS funding_earned_usd,
       round(a.borrowing_fees_usd, 6)::DOUBLE AS borrowing_fees_usd,
       round(a.liquidation_fees_usd, 6)::DOUBLE AS liquidation_fees_usd,
       a.avg_leverage,
       a.max_leverage,
       round(a.avg_position_size_usd, 6) AS avg_position_size_usd,
       round(a.max_position_size_usd, 6)::DOUBLE AS max_position_size_usd,
       a.avg_position_duration_hours,
       round(a.open_notional_usd, 6)::DOUBLE AS open_notional_usd,
       a.markets_traded,
       a.market_variants_traded
  FROM accounts a
  WHERE a.protocol = 'alpha';

-- Alpha lifecycles in the API's Position-record History-row shape, shared by endpoints 15 and 18
-- (18 adds the live fields): USD rounded to 6 decimals, prices and leverage not. No arguments.
CREATE OR REPLACE MACRO alpha_lifecycle_records() AS TABLE
  SELECT
       l.protocol,
       l.position_id,
       l.market_variant,
       l.market,
       l.address,
       l.side,
       round(l.max_size_usd, 6)::DOUBLE AS max_size_usd,
       round(l.max_collateral_usd, 6)::DOUBLE AS max_collateral_usd,
       l.entry_price,
       l.opened_at,
       l.status,
       l.closed_at,
       l.exit_price,
       l.max_leverage,
       round(l.realized_pnl_usd, 6)::DOUBLE AS realized_pnl_usd,
       round(l.fees_usd, 6)::DOUBLE AS fees_usd,
       round(l.liquidation_fees_usd, 6)::DOUBLE AS liquidation_fees_usd,
       round(l.funding_fees_usd, 6)::DOUBLE AS funding_fees_usd,
       round(l.borrowing_fees_usd, 6)::DOUBLE AS borrowing_fees_usd,
       round(l.funding_earned_usd, 6)::DOUBLE AS funding_earned_usd,
       round(l.net_pnl_usd, 6)::DOUBLE AS net_pnl_usd,
       l.fill_count,
       l.open_tx,
       l.close_tx
  FROM lifecycles l
  WHERE l.protocol = 'alpha';
