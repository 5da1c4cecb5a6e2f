-- Sets one bookkeeping value. Parameters: $key VARCHAR, $value VARCHAR.
INSERT OR REPLACE INTO meta VALUES ($key, $value);
