-- Recomputes the touched funding hours (those holding a touched 5-minute bucket) from every
-- market snapshot in them (job_msnap): count and exact decimal sums of the served net rates, as
-- sql/derive/funding-insert.sql. No parameters.
INSERT INTO funding_1h
SELECT a.*
FROM (
  SELECT protocol, market, market_variant, time_bucket(INTERVAL 1 HOUR, time) AS bucket, count(*) AS snapshots,
         sum(funding_rate_long::DECIMAL(38,20)) AS rate_long_sum, sum(funding_rate_short::DECIMAL(38,20)) AS rate_short_sum
  FROM job_msnap
  GROUP BY ALL
) a
SEMI JOIN (SELECT DISTINCT protocol, market, market_variant, time_bucket(INTERVAL 1 HOUR, bucket) AS bucket FROM job_touched_msnap) t
  ON a.protocol = t.protocol AND a.market = t.market AND a.market_variant IS NOT DISTINCT FROM t.market_variant AND a.bucket = t.bucket;
