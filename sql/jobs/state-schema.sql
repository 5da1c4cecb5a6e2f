-- Bookkeeping of the scheduled jobs (watermarks) in the derived-state database. Not part of the
-- derived state proper: a rebuild drops it, and the jobs then start over (a full pass). No parameters.
CREATE TABLE IF NOT EXISTS job_state (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL);
