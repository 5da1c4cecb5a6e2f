-- Drops the hourly funding buckets the staged batch touches (recomputed next). No parameters.
DELETE FROM funding_1h h
WHERE EXISTS (
  SELECT 1 FROM batch_msnap b
  WHERE b.protocol = h.protocol AND b.market = h.market
    AND b.market_variant IS NOT DISTINCT FROM h.market_variant
    AND time_bucket(INTERVAL 1 HOUR, b.time) = h.bucket);
