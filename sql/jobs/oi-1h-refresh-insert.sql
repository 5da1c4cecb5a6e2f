-- Recomputes the oi_snapshot_1h rows of the touched hours (job_touched_msnap) from the refreshed
-- oi_snapshot_5m, with the expressions of sql/derive/oi-snapshot-1h-insert.sql. No parameters.
INSERT INTO oi_snapshot_1h
SELECT o.protocol, o.market, o.market_variant, time_bucket(INTERVAL 1 HOUR, o.bucket) AS bucket,
       max(o.time), arg_max(o.oi_long_usd, o.time), arg_max(o.oi_short_usd, o.time),
       bool_or(o.oi_long_usd + o.oi_short_usd > 0)
FROM oi_snapshot_5m o
WHERE time_bucket(INTERVAL 1 HOUR, o.bucket) IN (SELECT DISTINCT time_bucket(INTERVAL 1 HOUR, bucket) FROM job_touched_msnap)
GROUP BY ALL
ORDER BY bucket;
