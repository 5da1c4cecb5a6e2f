-- Drops the 5-minute fill rollup buckets the staged batch touches (recomputed next). No parameters.
DELETE FROM rollup_5m r
WHERE EXISTS (
  SELECT 1 FROM batch_fills b
  WHERE b.protocol = r.protocol AND b.market = r.market
    AND b.market_variant IS NOT DISTINCT FROM r.market_variant
    AND time_bucket(INTERVAL 5 MINUTE, b.time) = r.bucket);
