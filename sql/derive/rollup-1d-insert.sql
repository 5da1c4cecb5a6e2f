-- Recomputes, from rollup_1h (already recomputed for the batch's hours), the daily rows of every
-- market key in the days the staged fills fall in: every rollup column summed, exactly as the
-- hourly rows. Time order (zone maps on `bucket`). No parameters.
INSERT INTO rollup_1d
SELECT r.protocol, r.market, r.market_variant, time_bucket(INTERVAL 1 DAY, r.bucket) AS bucket,
       sum(r.fill_count)::INTEGER, sum(r.volume_usd), sum(r.fees_usd),
       sum(r.oi_long_delta_usd), sum(r.oi_short_delta_usd),
       sum(r.liq_count)::INTEGER, sum(r.liq_long_usd), sum(r.liq_short_usd), sum(r.liq_fees_usd)
FROM rollup_1h r
WHERE r.bucket >= (SELECT time_bucket(INTERVAL 1 DAY, min(time)) FROM batch_fills)
  AND time_bucket(INTERVAL 1 DAY, r.bucket) IN (SELECT DISTINCT time_bucket(INTERVAL 1 DAY, time) FROM batch_fills)
GROUP BY ALL
ORDER BY bucket;
