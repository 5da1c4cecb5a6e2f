-- Drops the oi_snapshot_1h rows of the hours whose snapshot buckets this chunk refreshed
-- (job_touched_msnap); recomputed next. No parameters.
DELETE FROM oi_snapshot_1h WHERE bucket IN (SELECT DISTINCT time_bucket(INTERVAL 1 HOUR, bucket) FROM job_touched_msnap);
