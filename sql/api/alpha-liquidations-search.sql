-- $protocol VARCHAR: the protocol served ('alpha' or 'beta'; every endpoint of both runs this file).
-- `GET /v1/alpha/liquidations/search`: alpha liquidation events (fills of type
-- 'liquidation'), newest first (time desc, then journal seq desc: a total order).
-- Parameters (NULL = no such bound):
--   $market VARCHAR          grouped symbol, matches every variant of it
--   $market_variant VARCHAR  one variant
--   $from BIGINT             epoch ms, inclusive lower bound (already raised to the plan floor)
--   $to BIGINT               epoch ms, exclusive upper bound
--   $after_time BIGINT, $after_seq BIGINT   cursor: only rows strictly older than (time, seq)
--   $fetch BIGINT            rows to return (page limit + 1, to know whether a next page exists)
-- Fields: the alpha_liquidation_events() macro's (sql/schema/read-macros.sql), time_ms and seq
-- included for the cursor (stripped by the route).
-- Plan: the top-N runs on (time, seq) alone; only the page's rows are then read in full
-- (a semi-join on seq: the table is in seq order, so zone maps skip the rest) and shaped.
WITH page AS (
  SELECT seq
  FROM liquidations  -- the liquidation fills only (sql/schema/derived.sql)
  WHERE protocol = $protocol::VARCHAR
    AND ($market::VARCHAR IS NULL OR market = $market::VARCHAR)
    AND ($market_variant::VARCHAR IS NULL OR market_variant = $market_variant::VARCHAR)
    AND ($from::BIGINT IS NULL OR time >= epoch_ms($from::BIGINT))
    AND ($to::BIGINT IS NULL OR time < epoch_ms($to::BIGINT))
    AND ($after_time::BIGINT IS NULL
         OR time < epoch_ms($after_time::BIGINT)
         OR (time = epoch_ms($after_time::BIGINT) AND seq < $after_seq::BIGINT))
  ORDER BY time DESC, seq DESC
  LIMIT $fetch::BIGINT
)
SELECT * EXCLUDE (time_us)
FROM liquidation_events_of($protocol::VARCHAR)  -- the served shape, sql/schema/read-macros.sql
WHERE seq IN (SELECT seq FROM page)
ORDER BY time DESC, seq DESC;
