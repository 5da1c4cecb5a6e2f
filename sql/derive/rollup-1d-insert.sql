-- Recomputes, from rollup_5m (already merged with the batch), the daily OI-delta sums of every
-- market key in the days the staged fills fall in. Exact decimal sums of the 5-minute rows, so the
-- result does not depend on how fills were batched. No parameters.
INSERT INTO rollup_1d
SELECT r.protocol, r.market, r.market_variant, time_bucket(INTERVAL 1 DAY, r.bucket) AS bucket,
       sum(r.oi_long_delta_usd), sum(r.oi_short_delta_usd)
FROM rollup_5m r
WHERE r.bucket >= (SELECT time_bucket(INTERVAL 1 DAY, min(time)) FROM batch_fills)
  AND time_bucket(INTERVAL 1 DAY, r.bucket) IN (SELECT DISTINCT time_bucket(INTERVAL 1 DAY, time) FROM batch_fills)
GROUP BY ALL
ORDER BY bucket;
