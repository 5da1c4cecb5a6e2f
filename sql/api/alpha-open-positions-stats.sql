-- $protocol VARCHAR: the protocol served ('alpha' or 'beta'; every endpoint of both runs this file).
-- `GET /v1/alpha/open-positions/stats`: PositionsSummary over open alpha positions.
-- Parameters: $market VARCHAR or NULL (grouped symbol, summing its variants; NULL = protocol-wide).
-- The rows are exactly those of `GET /v1/{protocol}/open-positions/search` (both read the open_positions_of($protocol::VARCHAR) macro) for the
-- same market, so every figure equals aggregating that endpoint's rows:
--   counts by side; notional = Σ current_size_usd; uPnL = Σ unrealized_pnl_usd (per-row rounded);
--   avg_leverage = plain mean of the rows' leverage (0 when there is no open position), summed in
--     position_id order: a running sum in a fixed order gives the same bits every time, and the
--     same as the open positions in memory (server/read/open-positions/open-position-set.ts `summary`), which
--     answer this endpoint whenever they are loaded;
--   snapshot_ts = newest updated_at in the set (NULL when there is no open position).
-- Returns one row.
WITH
live AS (SELECT * FROM open_positions_of($protocol::VARCHAR)),  -- sql/schema/read-macros.sql
matched AS (
  SELECT * FROM live r WHERE $market::VARCHAR IS NULL OR r.market = $market::VARCHAR
)
SELECT $market::VARCHAR AS market,
       max(updated_at) AS snapshot_ts,
       count(*)::BIGINT AS total_positions,
       count(*) FILTER (WHERE side = 'long')::BIGINT AS long_positions,
       count(*) FILTER (WHERE side = 'short')::BIGINT AS short_positions,
       round(coalesce(sum(current_size_usd) FILTER (WHERE side = 'long'), 0), 6)::DOUBLE AS long_notional_usd,
       round(coalesce(sum(current_size_usd) FILTER (WHERE side = 'short'), 0), 6)::DOUBLE AS short_notional_usd,
       round(coalesce(sum(unrealized_pnl_usd) FILTER (WHERE side = 'long'), 0), 6)::DOUBLE AS long_upnl_usd,
       round(coalesce(sum(unrealized_pnl_usd) FILTER (WHERE side = 'short'), 0), 6)::DOUBLE AS short_upnl_usd,
       coalesce(avg(leverage ORDER BY position_id), 0)::DOUBLE AS avg_leverage
FROM matched;
