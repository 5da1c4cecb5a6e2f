-- The UTC day (epoch ms of its start) of a market's first market snapshot, from the derived daily
-- snapshot rows (every variant of the market); NULL when it has none.
-- Parameters: $protocol VARCHAR, $market VARCHAR.
SELECT epoch_ms(min(bucket)) AS day_ms
FROM oi_snapshot_1d
WHERE protocol = $protocol::VARCHAR AND market = $market::VARCHAR;
