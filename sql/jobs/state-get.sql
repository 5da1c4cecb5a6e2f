-- One job bookkeeping value. Parameters: $key VARCHAR.
SELECT value FROM job_state WHERE key = $key;
