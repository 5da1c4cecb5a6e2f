-- Endpoint 15, GET /v1/alpha/accounts/{address}/history: one page of an alpha address's closed and
-- liquidated lifecycles (Position record, History-row shape) plus the total match count.
-- Parameters:
--   $address VARCHAR           exact (case-sensitive) base58 address
--   $market VARCHAR or NULL    grouped symbol, matches every variant of it
--   $market_variant VARCHAR or NULL   one variant
--   $since BIGINT or NULL      epoch ms: lifecycles opened before it are omitted (plan history depth)
--   $sort_by VARCHAR           one of opened_at | closed_at | size | pnl | leverage (validated by the
--                              route; chooses the sort value below, never spliced into the SQL);
--                              size = max_size_usd, pnl = net_pnl_usd, leverage = max_leverage
--   $order VARCHAR             asc | desc
--   $offset BIGINT, $limit BIGINT   the page
-- Order: the chosen key in the chosen direction, then position_id desc (total order). Always returns
-- at least one row: `account_exists` (an alpha account row for the address) and `total` on every
-- row; a page past the end (or no match) gives a single row with position_id NULL.
-- USD rounded to 6 decimals; prices and leverage not rounded.
-- Plan (issue 7): one sort value per row (times as epoch µs, exact as DOUBLE; desc = ascending on
-- 0.0 - value, which never yields -0.0), so the page is a top-N on (value, position_id desc) over
-- the few columns it needs; only the page's lifecycles are then read in full and shaped.
WITH matched AS (
  SELECT l.position_id,
         CASE $sort_by::VARCHAR
           WHEN 'opened_at' THEN epoch_us(l.opened_at)::DOUBLE
           WHEN 'closed_at' THEN epoch_us(l.closed_at)::DOUBLE
           WHEN 'size' THEN round(l.max_size_usd, 6)::DOUBLE
           WHEN 'pnl' THEN round(l.net_pnl_usd, 6)::DOUBLE
           WHEN 'leverage' THEN l.max_leverage
         END AS v
  FROM lifecycles l
  WHERE l.protocol = 'alpha'
    AND l.address = $address::VARCHAR
    AND l.status IN ('closed', 'liquidated')
    AND ($market::VARCHAR IS NULL OR l.market = $market::VARCHAR)
    AND ($market_variant::VARCHAR IS NULL OR l.market_variant = $market_variant::VARCHAR)
    AND ($since::BIGINT IS NULL OR l.opened_at >= epoch_ms($since::BIGINT))
),
page AS (
  SELECT position_id, CASE WHEN $order::VARCHAR = 'desc' THEN 0.0 - v ELSE v END AS s
  FROM matched
  ORDER BY s ASC NULLS LAST, position_id DESC
  LIMIT $limit::BIGINT OFFSET $offset::BIGINT
)
SELECT EXISTS (SELECT 1 FROM accounts a WHERE a.protocol = 'alpha' AND a.address = $address::VARCHAR) AS account_exists,
       (SELECT count(*) FROM matched)::BIGINT AS total,
       l.*
FROM (SELECT 1) one
LEFT JOIN (page p JOIN alpha_lifecycle_records() l  -- the History-row shape, sql/schema/read-macros.sql
           ON l.position_id = p.position_id AND l.address = $address::VARCHAR) ON true
ORDER BY p.s ASC NULLS LAST, p.position_id DESC;
