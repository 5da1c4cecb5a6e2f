-- Endpoint 15, GET /v1/alpha/accounts/{address}/history: one page of an alpha address's closed and
-- liquidated lifecycles (Position record, History-row shape) plus the total match count.
-- Parameters:
--   $address VARCHAR           exact (case-sensitive) base58 address
--   $market VARCHAR or NULL    grouped symbol, matches every variant of it
--   $market_variant VARCHAR or NULL   one variant
--   $since BIGINT or NULL      epoch ms: lifecycles opened before it are omitted (plan history depth)
--   $sort_by VARCHAR           one of opened_at | closed_at | size | pnl | leverage (validated by the
--                              route; chooses one ORDER BY term below, never spliced into the SQL);
--                              size = max_size_usd, pnl = net_pnl_usd, leverage = max_leverage
--   $order VARCHAR             asc | desc
--   $offset BIGINT, $limit BIGINT   the page
-- Order: the chosen key in the chosen direction, then position_id desc (total order). Always returns
-- at least one row: `account_exists` (an alpha account row for the address) and `total` on every
-- row; a page past the end (or no match) gives a single row with position_id NULL.
-- USD rounded to 6 decimals; prices and leverage not rounded.
WITH matched AS (
  SELECT l.*,
         row_number() OVER (ORDER BY
           CASE WHEN $sort_by::VARCHAR = 'opened_at' AND $order::VARCHAR = 'asc' THEN l.opened_at END ASC NULLS LAST,
           CASE WHEN $sort_by::VARCHAR = 'opened_at' AND $order::VARCHAR = 'desc' THEN l.opened_at END DESC NULLS LAST,
           CASE WHEN $sort_by::VARCHAR = 'closed_at' AND $order::VARCHAR = 'asc' THEN l.closed_at END ASC NULLS LAST,
           CASE WHEN $sort_by::VARCHAR = 'closed_at' AND $order::VARCHAR = 'desc' THEN l.closed_at END DESC NULLS LAST,
           CASE WHEN $sort_by::VARCHAR = 'size' AND $order::VARCHAR = 'asc' THEN l.max_size_usd END ASC NULLS LAST,
           CASE WHEN $sort_by::VARCHAR = 'size' AND $order::VARCHAR = 'desc' THEN l.max_size_usd END DESC NULLS LAST,
           CASE WHEN $sort_by::VARCHAR = 'pnl' AND $order::VARCHAR = 'asc' THEN l.net_pnl_usd END ASC NULLS LAST,
           CASE WHEN $sort_by::VARCHAR = 'pnl' AND $order::VARCHAR = 'desc' THEN l.net_pnl_usd END DESC NULLS LAST,
           CASE WHEN $sort_by::VARCHAR = 'leverage' AND $order::VARCHAR = 'asc' THEN l.max_leverage END ASC NULLS LAST,
           CASE WHEN $sort_by::VARCHAR = 'leverage' AND $order::VARCHAR = 'desc' THEN l.max_leverage END DESC NULLS LAST,
           l.position_id DESC) AS rn
  FROM alpha_lifecycle_records() l  -- the History-row shape, sql/schema/derived.sql
  WHERE l.address = $address::VARCHAR
    AND l.status IN ('closed', 'liquidated')
    AND ($market::VARCHAR IS NULL OR l.market = $market::VARCHAR)
    AND ($market_variant::VARCHAR IS NULL OR l.market_variant = $market_variant::VARCHAR)
    AND ($since::BIGINT IS NULL OR l.opened_at >= epoch_ms($since::BIGINT))
),
page AS (
  SELECT * FROM matched l WHERE l.rn > $offset::BIGINT AND l.rn <= $offset::BIGINT + $limit::BIGINT
)
SELECT EXISTS (SELECT 1 FROM accounts a WHERE a.protocol = 'alpha' AND a.address = $address::VARCHAR) AS account_exists,
       (SELECT count(*) FROM matched)::BIGINT AS total,
       l.* EXCLUDE (rn)
FROM (SELECT 1) one
LEFT JOIN page l ON true
ORDER BY l.rn;
