-- The 5-minute buckets (per market key) holding a loaded market snapshot (job_msnap) from a file
-- of a commit after $after_commit: what the snapshot-rollup refresh recomputes.
-- Parameters: $after_commit BIGINT.
CREATE OR REPLACE TEMP TABLE job_touched_msnap AS
SELECT DISTINCT protocol, market, market_variant, time_bucket(INTERVAL 5 MINUTE, time) AS bucket
FROM job_msnap
WHERE last_commit > $after_commit;
