-- $protocol VARCHAR: the protocol served ('alpha' or 'beta'; every endpoint of both runs this file).
-- $lo_ms, $hi_ms BIGINT: epoch ms bounds of the closing times of the lifecycles read from `lifecycles` (the
-- account's first fill and just after its last; a route with the history read index, which holds
-- most of them, passes 0 and year 10000), so zone maps on closed_at skip the rest of the table.
-- GET /v1/{protocol}/accounts/{address}/history: one page of an address's closed and
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
--   $mark BIGINT               the mark of the history read index (server/read/lifecycles/history-index.ts;
--                              0 = not built: everything from `lifecycles`)
--   $offset BIGINT, $limit BIGINT   the page
-- Order: the chosen key in the chosen direction, then position_id desc (total order). Always returns
-- at least one row, with `total` on every row; a page past the end (or no match) gives a single row
-- with position_id NULL. Whether the account exists is the route's check (alpha-account-exists.sql).
-- USD rounded to 6 decimals; prices and leverage not rounded.
-- Plan: the closed lifecycles of one address come from the history read index (sorted
-- by address, so zone maps skip all but a row group or two) up to $mark and from `lifecycles`
-- after it (the last rows written: zone maps on last_seq skip the rest). The matches are read once
-- (materialized: the page and the count both use them) with only the columns the filters and the
-- sort need (times as epoch µs, exact as DOUBLE; desc = ascending on 0.0 - value, which never
-- yields -0.0); the page is a top-N on (value, position_id desc), and only its rows are then read
-- in full through the alpha_closed_records macro (a whale has thousands of lifecycles; their tx
-- strings cost more to read than the rest). DuckDB plans a statement again at every execution, so
-- the narrow branches matter as much as the scans: one wide macro in `matched` too cost ~4 ms more.
WITH matched AS MATERIALIZED (
  SELECT position_id,
         CASE $sort_by::VARCHAR
           WHEN 'opened_at' THEN epoch_us(opened_at)::DOUBLE
           WHEN 'closed_at' THEN epoch_us(closed_at)::DOUBLE
           WHEN 'size' THEN round(max_size_usd, 6)::DOUBLE
           WHEN 'pnl' THEN round(net_pnl_usd, 6)::DOUBLE
           WHEN 'leverage' THEN max_leverage
         END AS v
  FROM (
    SELECT position_id, market, market_variant, opened_at, closed_at, max_size_usd, net_pnl_usd, max_leverage
    FROM history_index
    WHERE protocol = $protocol::VARCHAR AND address = $address::VARCHAR AND last_seq <= $mark::BIGINT
    UNION ALL
    SELECT position_id, market, market_variant, opened_at, closed_at, max_size_usd, net_pnl_usd, max_leverage
    FROM lifecycles
    WHERE protocol = $protocol::VARCHAR AND address = $address::VARCHAR AND status IN ('closed', 'liquidated') AND last_seq > $mark::BIGINT
      AND closed_at >= epoch_ms($lo_ms::BIGINT) AND closed_at < epoch_ms($hi_ms::BIGINT)
  ) r
  WHERE ($market::VARCHAR IS NULL OR r.market = $market::VARCHAR)
    AND ($market_variant::VARCHAR IS NULL OR r.market_variant = $market_variant::VARCHAR)
    AND ($since::BIGINT IS NULL OR r.opened_at >= epoch_ms($since::BIGINT))
),
page AS (
  SELECT position_id, CASE WHEN $order::VARCHAR = 'desc' THEN 0.0 - v ELSE v END AS s
  FROM matched
  ORDER BY s ASC NULLS LAST, position_id DESC
  LIMIT $limit::BIGINT OFFSET $offset::BIGINT
)
SELECT (SELECT count(*) FROM matched)::BIGINT AS total,
       r.*
FROM (SELECT 1) one
LEFT JOIN (page p JOIN closed_records_of($protocol::VARCHAR, $address::VARCHAR, $mark::BIGINT, $lo_ms::BIGINT, $hi_ms::BIGINT) r ON r.position_id = p.position_id) ON true
ORDER BY p.s ASC NULLS LAST, p.position_id DESC;
