-- The accounts the batch changes, as they are after it (contract §6), for accounts-delete.sql and
-- accounts-insert.sql: each account's row before the batch (none for a new account) plus the sums
-- of its account_changes rows (accounts-changes.sql: lifecycles after minus before). A temp table
-- of the writer connection, replaced on every batch. No parameters.
--
-- Every figure is a count, an exact decimal or integer sum, a min or max, or a set, so adding the
-- change gives what recomputing the account from all its lifecycles gives:
-- - opened_at never changes and last_fill_at, max_leverage and max_size_usd only grow, so the
--   min / max over the old row and the changed lifecycles (old versions included) is the min / max
--   over all of them; a lifecycle's market and variant never change, so the lists are unions;
-- - the averages are taken from exact sums kept in the row (leverage_sum, size_sum, hold_ms_sum):
--   sum / count in doubles, the same expression whichever way the sums were reached.
-- A rebuild runs the same statement once over every lifecycle (catchup/accounts-changes-all.sql,
-- accounts cleared first), so both give the same bits; test/derive/catch-up-chunks.test.ts compares them.
CREATE OR REPLACE TEMP TABLE batch_accounts AS
WITH delta AS (
  SELECT protocol, address,
    sum(sign * (status <> 'open')::INTEGER) AS trades,
    sum(sign * (status <> 'open' AND net_pnl_usd > 0)::INTEGER) AS wins,
    sum(sign * (status <> 'open' AND net_pnl_usd < 0)::INTEGER) AS losses,
    sum(sign * volume_usd) AS volume_usd, sum(sign * net_pnl_usd) AS net_pnl_usd,
    sum(sign) AS positions, sum(sign * (status = 'open')::INTEGER) AS open_positions,
    min(opened_at) AS first_trade_at, max(last_fill_at) AS last_trade_at,
    sum(sign * realized_pnl_usd) AS realized_pnl_usd, sum(sign * fees_usd) AS fees_usd,
    sum(sign * funding_fees_usd) AS funding_fees_usd, sum(sign * funding_earned_usd) AS funding_earned_usd,
    sum(sign * borrowing_fees_usd) AS borrowing_fees_usd, sum(sign * liquidation_fees_usd) AS liquidation_fees_usd,
    sum(sign * max_leverage::DECIMAL(38,12)) AS leverage_sum, max(max_leverage) AS max_leverage,
    sum(sign * max_size_usd) AS size_sum, max(max_size_usd) AS max_size_usd,
    coalesce(sum(sign * (epoch_ms(closed_at) - epoch_ms(opened_at))) FILTER (status <> 'open'), 0) AS hold_ms_sum,
    coalesce(sum(sign * size_usd) FILTER (status = 'open'), 0) AS open_notional_usd,
    list_distinct(list(market)) AS markets, list_distinct(list(market_variant)) AS variants
  FROM account_changes
  GROUP BY protocol, address
),
merged AS (
  SELECT d.protocol, d.address,
    (coalesce(a.trades, 0) + d.trades)::INTEGER AS trades,
    (coalesce(a.wins, 0) + d.wins)::INTEGER AS wins,
    (coalesce(a.losses, 0) + d.losses)::INTEGER AS losses,
    (coalesce(a.volume_usd, 0) + d.volume_usd)::DECIMAL(38,6) AS volume_usd,
    (coalesce(a.net_pnl_usd, 0) + d.net_pnl_usd)::DECIMAL(38,6) AS net_pnl_usd,
    (coalesce(a.positions, 0) + d.positions)::INTEGER AS positions,
    (coalesce(a.open_positions, 0) + d.open_positions)::INTEGER AS open_positions,
    least(a.first_trade_at, d.first_trade_at) AS first_trade_at,
    greatest(a.last_trade_at, d.last_trade_at) AS last_trade_at,
    (coalesce(a.realized_pnl_usd, 0) + d.realized_pnl_usd)::DECIMAL(38,6) AS realized_pnl_usd,
    (coalesce(a.fees_usd, 0) + d.fees_usd)::DECIMAL(38,6) AS fees_usd,
    (coalesce(a.funding_fees_usd, 0) + d.funding_fees_usd)::DECIMAL(38,6) AS funding_fees_usd,
    (coalesce(a.funding_earned_usd, 0) + d.funding_earned_usd)::DECIMAL(38,6) AS funding_earned_usd,
    (coalesce(a.borrowing_fees_usd, 0) + d.borrowing_fees_usd)::DECIMAL(38,6) AS borrowing_fees_usd,
    (coalesce(a.liquidation_fees_usd, 0) + d.liquidation_fees_usd)::DECIMAL(38,6) AS liquidation_fees_usd,
    (coalesce(a.leverage_sum, 0) + d.leverage_sum)::DECIMAL(38,12) AS leverage_sum,
    greatest(a.max_leverage, d.max_leverage) AS max_leverage,
    (coalesce(a.size_sum, 0) + d.size_sum)::DECIMAL(38,6) AS size_sum,
    greatest(a.max_position_size_usd, d.max_size_usd) AS max_position_size_usd,
    (coalesce(a.hold_ms_sum, 0) + d.hold_ms_sum)::BIGINT AS hold_ms_sum,
    (coalesce(a.open_notional_usd, 0) + d.open_notional_usd)::DECIMAL(38,6) AS open_notional_usd,
    list_distinct(list_concat(coalesce(a.markets_traded, []), d.markets)) AS markets,
    list_distinct(list_concat(coalesce(a.market_variants_traded, []), d.variants)) AS variants
  FROM delta d
  LEFT JOIN (
    -- the batch's accounts by row id: the key-only scan finds them, and only their rows are read
    -- whole (a plain join decoded every column of every account: this statement 39-40 → 12-14 ms
    -- for a live append's ten accounts among 266k, docs/performance.md, "Write path")
    SELECT * FROM accounts
    WHERE rowid IN (SELECT rowid FROM accounts WHERE address IN (SELECT address FROM delta))
  ) a ON a.protocol = d.protocol AND a.address = d.address
)
-- in the accounts table's column order
SELECT protocol, address, trades, wins, losses,
  coalesce(wins / nullif(trades, 0), 0) AS win_rate,
  volume_usd, net_pnl_usd, positions, open_positions, first_trade_at, last_trade_at,
  realized_pnl_usd, fees_usd, funding_fees_usd, funding_earned_usd, borrowing_fees_usd, liquidation_fees_usd,
  leverage_sum::DOUBLE / positions AS avg_leverage, max_leverage,
  size_sum::DOUBLE / positions AS avg_position_size_usd, max_position_size_usd,
  hold_ms_sum::DOUBLE / nullif(trades, 0) / 3600000.0 AS avg_position_duration_hours,
  open_notional_usd,
  list_sort(markets) AS markets_traded, list_sort(variants) AS market_variants_traded,
  leverage_sum, size_sum, hold_ms_sum
FROM merged;
