-- Drops the funding_1h rows of the hours that hold a touched 5-minute bucket. No parameters.
DELETE FROM funding_1h h
USING (SELECT DISTINCT protocol, market, market_variant, time_bucket(INTERVAL 1 HOUR, bucket) AS bucket FROM job_touched_msnap) t
WHERE h.protocol = t.protocol AND h.market = t.market
  AND h.market_variant IS NOT DISTINCT FROM t.market_variant AND h.bucket = t.bucket;
