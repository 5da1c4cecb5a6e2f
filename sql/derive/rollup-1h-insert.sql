-- Recomputes, from rollup_5m (already merged with the batch), the hourly rows of every market key
-- in the hours the staged fills fall in: every rollup_5m column summed (counts and exact decimal
-- sums, so the result does not depend on how fills were batched). Time order, so zone maps on
-- `bucket` prune the history endpoints' window reads. No parameters.
INSERT INTO rollup_1h
SELECT r.protocol, r.market, r.market_variant, time_bucket(INTERVAL 1 HOUR, r.bucket) AS bucket,
       sum(r.fill_count)::INTEGER, sum(r.volume_usd), sum(r.fees_usd),
       sum(r.oi_long_delta_usd), sum(r.oi_short_delta_usd),
       sum(r.liq_count)::INTEGER, sum(r.liq_long_usd), sum(r.liq_short_usd), sum(r.liq_fees_usd)
FROM rollup_5m r
WHERE r.bucket >= (SELECT time_bucket(INTERVAL 1 HOUR, min(time)) FROM batch_fills)
  AND time_bucket(INTERVAL 1 HOUR, r.bucket) IN (SELECT DISTINCT time_bucket(INTERVAL 1 HOUR, time) FROM batch_fills)
GROUP BY ALL
ORDER BY bucket;
