-- The 5-minute rollup rows of $protocol with buckets in [$lo, $hi), for the in-memory history mirror
-- (server/read/buckets/history-mirror.ts), ordered by variant: market, market_variant, then DOUBLE columns
-- the mirror takes from DuckDB's vectors as they are: bucket start (epoch ms), the counts, and
-- amounts as micro-dollars, round(amount::DOUBLE * 1e6), which is the exact integer below 2^50
-- (the mirror refuses larger values; the exact HUGEINT cast made a full load ~4x slower).
-- Parameters: $protocol VARCHAR ('alpha' or 'beta'), $lo / $hi BIGINT epoch ms.
SELECT market, market_variant, epoch_ms(bucket)::DOUBLE AS bucket_ms,
       fill_count::DOUBLE AS fill_count, round(volume_usd::DOUBLE * 1000000) AS volume, round(fees_usd::DOUBLE * 1000000) AS fees,
       liq_count::DOUBLE AS liq_count, round(liq_long_usd::DOUBLE * 1000000) AS liq_long,
       round(liq_short_usd::DOUBLE * 1000000) AS liq_short, round(liq_fees_usd::DOUBLE * 1000000) AS liq_fees,
       round(oi_long_delta_usd::DOUBLE * 1000000) AS oi_long, round(oi_short_delta_usd::DOUBLE * 1000000) AS oi_short
FROM rollup_5m
WHERE protocol = $protocol::VARCHAR AND bucket >= epoch_ms($lo::BIGINT) AND bucket < epoch_ms($hi::BIGINT)
ORDER BY market, market_variant;
