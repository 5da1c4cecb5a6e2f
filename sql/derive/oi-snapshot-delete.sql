-- Drops the 5-minute snapshot-OI rows of the buckets the staged batch has snapshots in: a
-- batch's snapshots are newer than every kept one (stale ones are dropped at append, see
-- sql/ingest/drop-stale-market-snapshots.sql), so its last snapshot in a bucket wins. Only
-- buckets from the batch's first one on can match: the bound lets zone maps skip older rows.
-- No parameters.
DELETE FROM oi_snapshot_5m o
WHERE o.bucket >= (SELECT time_bucket(INTERVAL 5 MINUTE, min(time)) FROM batch_msnap)
  AND EXISTS (
  SELECT 1 FROM batch_msnap b
  WHERE b.protocol = o.protocol AND b.market = o.market
    AND b.market_variant IS NOT DISTINCT FROM o.market_variant
    AND time_bucket(INTERVAL 5 MINUTE, b.time) = o.bucket);
