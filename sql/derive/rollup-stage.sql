-- The staged batch's fills aggregated per (market key, 5-minute bucket), for rollup-update.sql and
-- rollup-insert.sql (aggregates as documented there). A temp table of the writer connection,
-- replaced on every batch. No parameters.
CREATE OR REPLACE TEMP TABLE batch_rollup AS
SELECT protocol, market, market_variant, time_bucket(INTERVAL 5 MINUTE, time) AS bucket,
  count(*)::INTEGER AS fill_count,
  coalesce(sum(abs(size_delta_usd)) FILTER (type <> 'liquidation'), 0) AS volume_usd,
  sum(fee_usd) AS fees_usd,
  coalesce(sum(size_delta_usd) FILTER (side = 'long'), 0) AS oi_long_delta_usd,
  coalesce(sum(size_delta_usd) FILTER (side = 'short'), 0) AS oi_short_delta_usd,
  (count(*) FILTER (type = 'liquidation'))::INTEGER AS liq_count,
  coalesce(sum(-size_delta_usd) FILTER (type = 'liquidation' AND side = 'long'), 0) AS liq_long_usd,
  coalesce(sum(-size_delta_usd) FILTER (type = 'liquidation' AND side = 'short'), 0) AS liq_short_usd,
  coalesce(sum(liquidation_fee_usd) FILTER (type = 'liquidation'), 0) AS liq_fees_usd
FROM batch_fills GROUP BY ALL;
