-- Recomputes, from oi_snapshot_5m (already updated with the batch), the daily row of every market
-- key in the days the staged market snapshots fall in: the OI of the day's last snapshot, and
-- whether any snapshot of the day had OI > 0. No parameters.
INSERT INTO oi_snapshot_1d
SELECT o.protocol, o.market, o.market_variant, time_bucket(INTERVAL 1 DAY, o.bucket) AS bucket,
       max(o.time), arg_max(o.oi_long_usd, o.time), arg_max(o.oi_short_usd, o.time),
       bool_or(o.oi_long_usd + o.oi_short_usd > 0)
FROM oi_snapshot_5m o
WHERE o.bucket >= (SELECT time_bucket(INTERVAL 1 DAY, min(time)) FROM batch_msnap)
  AND time_bucket(INTERVAL 1 DAY, o.bucket) IN (SELECT DISTINCT time_bucket(INTERVAL 1 DAY, time) FROM batch_msnap)
GROUP BY ALL
ORDER BY bucket;
