-- Sets one job bookkeeping value. Parameters: $key VARCHAR, $value VARCHAR.
INSERT OR REPLACE INTO job_state VALUES ($key, $value);
