-- $protocol VARCHAR: the protocol served ('alpha' or 'beta'; every endpoint of both runs this file).
-- `GET /v1/alpha/open-positions/search`: one page of open alpha positions (Open-search
-- rows) plus, on every row, the total match count and the meta figures over ALL matching rows.
-- Parameters:
--   $market_variant VARCHAR or NULL   one variant
--   $market VARCHAR or NULL           grouped symbol (all its variants)
--   $address VARCHAR or NULL          owner wallet
--   $side VARCHAR or NULL             long | short
--   $min_size_usd DOUBLE or NULL      current_size_usd >= it
--   $sort_by VARCHAR    size | pnl | collateral | leverage | opened_at | liq_proximity (validated by
--                       the route; chooses the sort value below, never spliced into the SQL)
--   $order VARCHAR      asc | desc
--   $offset BIGINT, $limit BIGINT    the page
-- Sort keys: size = current_size_usd, pnl = unrealized_pnl_usd, collateral = current_collateral_usd,
-- leverage, opened_at, liq_proximity = |mark − liquidation| / mark (rows without a liquidation price
-- are not matches when sorting by it). Then address asc, then position_id desc (total order).
-- Meta: oldest_updated = min(updated_at); last_full_refresh = max(updated_at) of poll-sourced rows.
-- Always returns at least one row: a page past the end gives one row with only total/meta set.
-- Rows: the open_position_rows_of($protocol::VARCHAR) macro (sql/schema/read-macros.sql), the served row plus the
-- exact values the filters and sorts use, shared with the in-memory set's load.
-- Plan: one sort value per row instead of twelve CASE terms, so the page is a top-N.
WITH
live AS (SELECT * FROM open_position_rows_of($protocol::VARCHAR)),
matched AS (
  SELECT r.*,
         -- the sort value: exact decimals for the USD keys, doubles (times as epoch µs, exact) for
         -- the others; desc = ascending on 0 - value (never -0.0); NULL sorts last either way
         CASE $sort_by::VARCHAR
           WHEN 'size' THEN r.size_exact::DECIMAL(38,6)
           WHEN 'pnl' THEN r.pnl_exact
           WHEN 'collateral' THEN r.collateral_exact::DECIMAL(38,6)
         END AS dv,
         CASE $sort_by::VARCHAR
           WHEN 'leverage' THEN r.leverage
           WHEN 'opened_at' THEN r.opened_us
           WHEN 'liq_proximity' THEN r.liq_proximity
         END AS fv
  FROM live r
  WHERE ($market_variant::VARCHAR IS NULL OR r.market_variant = $market_variant::VARCHAR)
    AND ($market::VARCHAR IS NULL OR r.market = $market::VARCHAR)
    AND ($address::VARCHAR IS NULL OR r.address = $address::VARCHAR)
    AND ($side::VARCHAR IS NULL OR r.side = $side::VARCHAR)
    AND ($min_size_usd::DOUBLE IS NULL OR r.size_exact::DOUBLE >= $min_size_usd::DOUBLE)
    AND ($sort_by::VARCHAR <> 'liq_proximity' OR r.liq_proximity IS NOT NULL)
),
summary AS (
  SELECT count(*)::BIGINT AS total,
         min(updated_at) AS oldest_updated,
         max(updated_at) FILTER (WHERE source = 'poll') AS last_full_refresh
  FROM matched
),
page AS (
  SELECT r.*,
         CASE WHEN $order::VARCHAR = 'desc' THEN 0 - r.dv ELSE r.dv END AS ds,
         CASE WHEN $order::VARCHAR = 'desc' THEN 0.0 - r.fv ELSE r.fv END AS fs
  FROM matched r
  ORDER BY ds ASC NULLS LAST, fs ASC NULLS LAST, r.address ASC, r.position_id DESC
  LIMIT $limit::BIGINT OFFSET $offset::BIGINT
)
SELECT s.total, s.oldest_updated, s.last_full_refresh,
       r.* EXCLUDE (size_exact, collateral_exact, pnl_exact, opened_us, liq_proximity, source, dv, fv, ds, fs)
FROM summary s
LEFT JOIN page r ON true
ORDER BY r.ds ASC NULLS LAST, r.fs ASC NULLS LAST, r.address ASC, r.position_id DESC;
