-- Drops the oi_snapshot_1d rows of the days the staged market snapshots fall in (recomputed next
-- from oi_snapshot_5m). The lower bound lets zone maps skip older rows. No parameters.
DELETE FROM oi_snapshot_1d o
WHERE o.bucket >= (SELECT time_bucket(INTERVAL 1 DAY, min(time)) FROM batch_msnap)
  AND o.bucket IN (SELECT DISTINCT time_bucket(INTERVAL 1 DAY, time) FROM batch_msnap);
