-- Creates the 5-minute rollup buckets of the staged batch that did not exist yet (the existing
-- ones were updated by rollup-update.sql), in time order. No parameters.
INSERT INTO rollup_5m
SELECT b.protocol, b.market, b.market_variant, b.bucket, b.fill_count, b.volume_usd, b.fees_usd,
       b.oi_long_delta_usd, b.oi_short_delta_usd, b.liq_count, b.liq_long_usd, b.liq_short_usd, b.liq_fees_usd
FROM batch_rollup b
WHERE NOT EXISTS (
  SELECT 1 FROM rollup_5m r
  WHERE r.bucket >= (SELECT min(bucket) FROM batch_rollup)
    AND r.protocol = b.protocol AND r.market = b.market AND r.market_variant IS NOT DISTINCT FROM b.market_variant
    AND r.bucket = b.bucket)
ORDER BY b.bucket;
