-- The 5-minute fill buckets (per market key) that fills after $after_seq fall in: what the
-- rollup refresh recomputes. Parameters: $after_seq BIGINT.
CREATE OR REPLACE TEMP TABLE job_touched_5m AS
SELECT DISTINCT protocol, market, market_variant, time_bucket(INTERVAL 5 MINUTE, time) AS bucket
FROM fills
WHERE seq > $after_seq;
