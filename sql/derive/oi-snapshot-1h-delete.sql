-- Drops the oi_snapshot_1h rows of the hours the staged market snapshots fall in (recomputed next
-- from oi_snapshot_5m). The lower bound lets zone maps skip older rows. No parameters.
DELETE FROM oi_snapshot_1h o
WHERE o.bucket >= (SELECT time_bucket(INTERVAL 1 HOUR, min(time)) FROM batch_msnap)
  AND o.bucket IN (SELECT DISTINCT time_bucket(INTERVAL 1 HOUR, time) FROM batch_msnap);
