-- Recomputes, from oi_snapshot_5m (already updated with the batch), the hourly row of every market
-- key in the hours the staged market snapshots fall in: the OI of the hour's last snapshot, and
-- whether any snapshot of the hour had OI > 0 (as oi-snapshot-1d-insert.sql per day). Time order
-- (zone maps on `bucket`). No parameters.
INSERT INTO oi_snapshot_1h
SELECT o.protocol, o.market, o.market_variant, time_bucket(INTERVAL 1 HOUR, o.bucket) AS bucket,
       max(o.time), arg_max(o.oi_long_usd, o.time), arg_max(o.oi_short_usd, o.time),
       bool_or(o.oi_long_usd + o.oi_short_usd > 0)
FROM oi_snapshot_5m o
WHERE o.bucket >= (SELECT time_bucket(INTERVAL 1 HOUR, min(time)) FROM batch_msnap)
  AND time_bucket(INTERVAL 1 HOUR, o.bucket) IN (SELECT DISTINCT time_bucket(INTERVAL 1 HOUR, time) FROM batch_msnap)
GROUP BY ALL
ORDER BY bucket;
