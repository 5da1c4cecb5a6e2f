-- The newest lifecycle of one position account (for a snapshot of a key not in memory).
-- Parameters: $protocol VARCHAR, $position_key VARCHAR.
SELECT max(position_id) AS id FROM lifecycles WHERE protocol = $protocol AND position_key = $position_key;
