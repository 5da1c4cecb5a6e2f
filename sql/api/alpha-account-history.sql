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
  FROM lifecycles l
  WHERE l.protocol = 'alpha'
    AND l.address = $address::VARCHAR
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
FROM (SELECT 1) one
LEFT JOIN page l ON true
ORDER BY l.rn;
