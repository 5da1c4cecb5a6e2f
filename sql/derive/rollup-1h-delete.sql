-- Drops the rollup_1h rows of the hours the staged fills fall in (recomputed next from rollup_5m).
-- The lower bound lets zone maps skip older rows. No parameters.
DELETE FROM rollup_1h r
WHERE r.bucket >= (SELECT time_bucket(INTERVAL 1 HOUR, min(time)) FROM batch_fills)
  AND r.bucket IN (SELECT DISTINCT time_bucket(INTERVAL 1 HOUR, time) FROM batch_fills);
