-- Drops the rollup_1d rows of the days the staged fills fall in (recomputed next from
-- rollup_1h). The lower bound lets zone maps skip older rows. No parameters.
DELETE FROM rollup_1d r
WHERE r.bucket >= (SELECT time_bucket(INTERVAL 1 DAY, min(time)) FROM batch_fills)
  AND r.bucket IN (SELECT DISTINCT time_bucket(INTERVAL 1 DAY, time) FROM batch_fills);
