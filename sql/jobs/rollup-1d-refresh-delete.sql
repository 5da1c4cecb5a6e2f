-- Drops the rollup_1d rows of the days whose 5-minute fill buckets this chunk refreshed
-- (job_touched_5m); recomputed next. No parameters.
DELETE FROM rollup_1d WHERE bucket IN (SELECT DISTINCT time_bucket(INTERVAL 1 DAY, bucket) FROM job_touched_5m);
