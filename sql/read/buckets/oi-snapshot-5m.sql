-- The 5-minute snapshot-OI rows of $protocol (the last market snapshot of each bucket) with buckets in
-- [$lo, $hi), for the in-memory history mirror (server/read/buckets/history-mirror.ts), ordered by variant:
-- market, market_variant, then DOUBLE columns: bucket start and snapshot time (epoch ms), OI long
-- and short as micro-dollars (exact below 2^50, see rollup-5m.sql).
-- Parameters: $protocol VARCHAR ('alpha' or 'beta'), $lo / $hi BIGINT epoch ms.
SELECT market, market_variant, epoch_ms(bucket)::DOUBLE AS bucket_ms, epoch_ms(time)::DOUBLE AS time_ms,
       round(oi_long_usd::DOUBLE * 1000000) AS oi_long, round(oi_short_usd::DOUBLE * 1000000) AS oi_short
FROM oi_snapshot_5m
WHERE protocol = $protocol::VARCHAR AND bucket >= epoch_ms($lo::BIGINT) AND bucket < epoch_ms($hi::BIGINT)
ORDER BY market, market_variant;
