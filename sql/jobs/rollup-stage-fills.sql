-- Stages every fill of the touched 5-minute buckets (job_touched_5m) as the writer's batch_fills, so
-- the refresh recomputes those buckets with the append path's own steps (sql/derive/rollup-stage,
-- rollup-insert, rollup-1h-*, rollup-1d-*) after jobs/rollup-delete removed them.
-- No parameters.
INSERT INTO batch_fills BY NAME
SELECT f.*, 0 AS ord_row
FROM fills f
SEMI JOIN job_touched_5m t
  ON f.protocol = t.protocol AND f.market = t.market AND f.market_variant IS NOT DISTINCT FROM t.market_variant
 AND time_bucket(INTERVAL 5 MINUTE, f.time) = t.bucket
WHERE f.time >= (SELECT min(bucket) FROM job_touched_5m)
  AND f.time < (SELECT max(bucket) FROM job_touched_5m) + INTERVAL 5 MINUTE;
