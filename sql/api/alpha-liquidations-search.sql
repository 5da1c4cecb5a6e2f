-- Endpoint 5, GET /v1/alpha/liquidations/search: alpha liquidation events (fills of type
-- 'liquidation'), newest first (time desc, then journal seq desc: a total order).
-- Parameters (NULL = no such bound):
--   $market VARCHAR          grouped symbol, matches every variant of it
--   $market_variant VARCHAR  one variant
--   $from BIGINT             epoch ms, inclusive lower bound (already raised to the plan floor)
--   $to BIGINT               epoch ms, exclusive upper bound
--   $after_time BIGINT, $after_seq BIGINT   cursor: only rows strictly older than (time, seq)
--   $fetch BIGINT            rows to return (page limit + 1, to know whether a next page exists)
-- Fields (contract §5): size_usd = notional at liquidation = −size_delta_usd; collateral_usd =
-- collateral before the liquidation = −collateral_delta_usd; price = execution price; entry_price
-- = the position's entry price on the fill; pnl_usd = the fill's realized PnL before fees;
-- liquidation_fee_usd (0 when absent). USD rounded to 6 decimals; prices not rounded.
-- time_ms and seq are returned for the cursor and stripped by the route.
-- Plan (issue 7): the top-N runs on (time, seq) alone; only the page's rows are then read in full
-- (a semi-join on seq: the table is in seq order, so zone maps skip the rest) and shaped.
WITH page AS (
  SELECT seq
  FROM liquidations  -- the liquidation fills only (sql/schema/derived.sql)
  WHERE protocol = 'alpha'
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
SELECT time,
       position_id,
       protocol,
       market,
       market_variant,
       address,
       side,
       round(-size_delta_usd, 6)::DOUBLE AS size_usd,
       round(-collateral_delta_usd, 6)::DOUBLE AS collateral_usd,
       price,
       entry_price,
       round(pnl_delta_usd, 6)::DOUBLE AS pnl_usd,
       round(coalesce(liquidation_fee_usd, 0), 6)::DOUBLE AS liquidation_fee_usd,
       tx,
       epoch_ms(time) AS time_ms,
       seq
FROM liquidations
WHERE seq IN (SELECT seq FROM page)
ORDER BY time DESC, seq DESC;
