-- The alpha hourly funding rows with hours at or after $from, for
-- `GET /v1/alpha/funding-rates/history`'s in-memory set (server/read/funding/funding-index.ts), ordered by
-- variant then hour: the hour (epoch ms), the snapshot count, and the two exact rate sums as DuckDB
-- prints their DECIMAL(38,20) (the set sums them as integers and casts as DuckDB does,
-- server/db/decimal-double.ts).
-- Parameters: $from BIGINT epoch ms (0: every row).
SELECT market_variant, epoch_ms(bucket)::DOUBLE AS hour_ms, snapshots::DOUBLE AS snapshots,
       rate_long_sum::VARCHAR AS rate_long_sum, rate_short_sum::VARCHAR AS rate_short_sum
FROM funding_1h
WHERE protocol = 'alpha' AND market_variant IS NOT NULL AND bucket >= epoch_ms($from::BIGINT)
ORDER BY market_variant, bucket;
