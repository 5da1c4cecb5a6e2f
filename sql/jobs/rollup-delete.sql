-- Drops the rollup_5m rows of the touched buckets (job_touched_5m); recomputed next. No parameters.
DELETE FROM rollup_5m r
USING job_touched_5m t
WHERE r.protocol = t.protocol AND r.market = t.market
  AND r.market_variant IS NOT DISTINCT FROM t.market_variant AND r.bucket = t.bucket;
