-- Recomputes the rollup_1d rows of the touched days (job_touched_5m) from the refreshed rollup_5m,
-- with the expressions of sql/derive/rollup-1d-insert.sql. No parameters.
INSERT INTO rollup_1d
SELECT r.protocol, r.market, r.market_variant, time_bucket(INTERVAL 1 DAY, r.bucket) AS bucket,
       sum(r.oi_long_delta_usd), sum(r.oi_short_delta_usd)
FROM rollup_5m r
WHERE time_bucket(INTERVAL 1 DAY, r.bucket) IN (SELECT DISTINCT time_bucket(INTERVAL 1 DAY, bucket) FROM job_touched_5m)
GROUP BY ALL
ORDER BY bucket;
