-- Drops the oi_snapshot_1d rows of the days whose snapshot buckets this chunk refreshed
-- (job_touched_msnap); recomputed next. No parameters.
DELETE FROM oi_snapshot_1d WHERE bucket IN (SELECT DISTINCT time_bucket(INTERVAL 1 DAY, bucket) FROM job_touched_msnap);
