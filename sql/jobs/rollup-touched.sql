-- The 5-minute fill buckets (per market key) of [$from_ms, $to_ms) that fills after $after_seq
-- fall in: what the rollup refresh recomputes in this chunk of days.
-- Parameters: $after_seq BIGINT, $from_ms BIGINT, $to_ms BIGINT (epoch ms).
CREATE OR REPLACE TEMP TABLE job_touched_5m AS
SELECT DISTINCT protocol, market, market_variant, time_bucket(INTERVAL 5 MINUTE, time) AS bucket
FROM fills
WHERE seq > $after_seq AND time >= make_timestamp($from_ms * 1000) AND time < make_timestamp($to_ms * 1000);
