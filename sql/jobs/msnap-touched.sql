-- The 5-minute buckets (per market key) that the market snapshots of the given journal files
-- fall in: what the snapshot-rollup refresh recomputes. The file list is spliced in by
-- jobs/rollup-refresh.ts (a file list cannot be a bound parameter). No parameters.
CREATE OR REPLACE TEMP TABLE job_touched_msnap AS
SELECT DISTINCT protocol, market, market_variant, time_bucket(INTERVAL 5 MINUTE, time) AS bucket,
       strftime(time::DATE, '%Y-%m-%d') AS day
FROM read_parquet(__FILES__, hive_partitioning = true);
