-- Recomputes the touched funding hours from every market snapshot in them (job_msnap): count and
-- exact decimal sums of the served net rates, as sql/derive/funding-insert.sql. No parameters.
INSERT INTO funding_1h
SELECT m.protocol, m.market, m.market_variant, t.bucket, count(*) AS snapshots,
       sum(m.funding_rate_long::DECIMAL(38,20)) AS rate_long_sum, sum(m.funding_rate_short::DECIMAL(38,20)) AS rate_short_sum
FROM job_msnap m
JOIN (SELECT DISTINCT protocol, market, market_variant, time_bucket(INTERVAL 1 HOUR, bucket) AS bucket FROM job_touched_msnap) t
  ON m.protocol = t.protocol AND m.market = t.market AND m.market_variant IS NOT DISTINCT FROM t.market_variant
 AND time_bucket(INTERVAL 1 HOUR, m.time) = t.bucket
GROUP BY m.protocol, m.market, m.market_variant, t.bucket;
