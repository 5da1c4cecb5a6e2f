-- Bookkeeping of the scheduled jobs (watermarks) in the derived-state database. Not part of the
-- derived state proper: a rebuild drops it; it then holds the rollup refresh's watermark at the
-- rebuilt state (jobs/rollup-refresh.ts markRollupsRefreshed), the other jobs start over. No parameters.
CREATE TABLE IF NOT EXISTS job_state (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL);
