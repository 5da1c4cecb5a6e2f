-- Drops the oi_snapshot_5m rows of the touched buckets (job_touched_msnap). No parameters.
DELETE FROM oi_snapshot_5m o
USING (SELECT DISTINCT protocol, market, market_variant, bucket FROM job_touched_msnap) t
WHERE o.protocol = t.protocol AND o.market = t.market
  AND o.market_variant IS NOT DISTINCT FROM t.market_variant AND o.bucket = t.bucket;
