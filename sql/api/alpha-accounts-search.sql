-- Endpoint 13, GET /v1/alpha/accounts/search: one page of alpha Accounts plus the total match count.
-- Parameters:
--   $sort_by VARCHAR   one of net_pnl | volume | win_rate | positions | current_notional (validated
--                      by the route; chooses the sort value below, never spliced into the SQL)
--   $order VARCHAR     asc | desc
--   $min_trades BIGINT or NULL       trades >= min_trades
--   $has_active BOOLEAN or NULL      true: open_positions > 0; false: open_positions = 0
--   $search VARCHAR or NULL          case-insensitive address prefix
--   $offset BIGINT, $limit BIGINT    the page
-- Order: the chosen key (as served: USD rounded to 6 decimals, as DOUBLE) in the chosen direction,
-- then address asc (total order). Always returns at least one row: a page past the end gives a
-- single row with only `total` set (address NULL).
-- Plan (issue 7): one sort value per row (desc = ascending on 0.0 - value; 0.0 - x never yields
-- -0.0, and no sorted column is NULL), so the page is a top-N on (value, address) over the
-- matching accounts, and only the page's rows get the Account shape (alpha_accounts()).
WITH keyed AS (
  SELECT a.address,
         CASE $sort_by::VARCHAR
           WHEN 'net_pnl' THEN round(a.net_pnl_usd, 6)::DOUBLE
           WHEN 'volume' THEN round(a.volume_usd, 6)::DOUBLE
           WHEN 'win_rate' THEN a.win_rate
           WHEN 'positions' THEN a.positions::DOUBLE
           WHEN 'current_notional' THEN round(a.open_notional_usd, 6)::DOUBLE
         END AS v
  FROM accounts a
  WHERE a.protocol = 'alpha'
    AND ($min_trades::BIGINT IS NULL OR a.trades >= $min_trades::BIGINT)
    AND ($has_active::BOOLEAN IS NULL OR (a.open_positions > 0) = $has_active::BOOLEAN)
    AND ($search::VARCHAR IS NULL OR starts_with(lower(a.address), lower($search::VARCHAR)))
),
page AS (
  SELECT address, CASE WHEN $order::VARCHAR = 'desc' THEN 0.0 - v ELSE v END AS s
  FROM keyed
  ORDER BY s, address
  LIMIT $limit::BIGINT OFFSET $offset::BIGINT
)
SELECT (SELECT count(*) FROM keyed)::BIGINT AS total, a.*
FROM (SELECT 1) one
LEFT JOIN (page p JOIN alpha_accounts() a ON a.address = p.address) ON true
ORDER BY p.s, p.address;
