-- Endpoint 13, GET /v1/alpha/accounts/search: one page of alpha Accounts plus the total match count.
-- Parameters:
--   $sort_by VARCHAR   one of net_pnl | volume | win_rate | positions | current_notional (validated
--                      by the route; chooses one ORDER BY term below, never spliced into the SQL)
--   $order VARCHAR     asc | desc
--   $min_trades BIGINT or NULL       trades >= min_trades
--   $has_active BOOLEAN or NULL      true: open_positions > 0; false: open_positions = 0
--   $search VARCHAR or NULL          case-insensitive address prefix
--   $offset BIGINT, $limit BIGINT    the page
-- Order: the chosen key in the chosen direction, then address asc (total order). Always returns at
-- least one row: a page past the end gives a single row with only `total` set (address NULL).
WITH matched AS (
  SELECT a.*,
         row_number() OVER (ORDER BY
           CASE WHEN $sort_by::VARCHAR = 'net_pnl' AND $order::VARCHAR = 'asc' THEN a.net_pnl_usd END ASC NULLS LAST,
           CASE WHEN $sort_by::VARCHAR = 'net_pnl' AND $order::VARCHAR = 'desc' THEN a.net_pnl_usd END DESC NULLS LAST,
           CASE WHEN $sort_by::VARCHAR = 'volume' AND $order::VARCHAR = 'asc' THEN a.volume_usd END ASC NULLS LAST,
           CASE WHEN $sort_by::VARCHAR = 'volume' AND $order::VARCHAR = 'desc' THEN a.volume_usd END DESC NULLS LAST,
           CASE WHEN $sort_by::VARCHAR = 'win_rate' AND $order::VARCHAR = 'asc' THEN a.win_rate END ASC NULLS LAST,
           CASE WHEN $sort_by::VARCHAR = 'win_rate' AND $order::VARCHAR = 'desc' THEN a.win_rate END DESC NULLS LAST,
           CASE WHEN $sort_by::VARCHAR = 'positions' AND $order::VARCHAR = 'asc' THEN a.positions END ASC NULLS LAST,
           CASE WHEN $sort_by::VARCHAR = 'positions' AND $order::VARCHAR = 'desc' THEN a.positions END DESC NULLS LAST,
           CASE WHEN $sort_by::VARCHAR = 'current_notional' AND $order::VARCHAR = 'asc' THEN a.open_notional_usd END ASC NULLS LAST,
           CASE WHEN $sort_by::VARCHAR = 'current_notional' AND $order::VARCHAR = 'desc' THEN a.open_notional_usd END DESC NULLS LAST,
           a.address ASC) AS rn
  FROM alpha_accounts() a  -- the Account shape, sql/schema/derived.sql
  WHERE ($min_trades::BIGINT IS NULL OR a.trades >= $min_trades::BIGINT)
    AND ($has_active::BOOLEAN IS NULL OR (a.open_positions > 0) = $has_active::BOOLEAN)
    AND ($search::VARCHAR IS NULL OR starts_with(lower(a.address), lower($search::VARCHAR)))
),
page AS (
  SELECT * FROM matched a WHERE a.rn > $offset::BIGINT AND a.rn <= $offset::BIGINT + $limit::BIGINT
)
SELECT (SELECT count(*) FROM matched)::BIGINT AS total, a.* EXCLUDE (rn)
FROM (SELECT 1) one
LEFT JOIN page a ON true
ORDER BY a.rn;
