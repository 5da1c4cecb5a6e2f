-- $protocol VARCHAR: the protocol served ('alpha' or 'beta'); alpha selects one variant by
-- $market_variant ($market NULL), beta (one row per market, variant NULL) one market by $market.
-- `GET /v1/alpha/funding-rates/history`: average served net hourly rate per side per
-- epoch-aligned bucket, oldest first, for one variant; buckets without snapshots omitted.
-- Parameters: $from, $to BIGINT epoch ms (window [from, to)); $bucket_ms BIGINT bucket size in ms
-- (a multiple of 1 hour); $market_variant VARCHAR.
-- Average = Σ rate sums / Σ snapshot counts over the hours of funding_1h in the bucket (each
-- snapshot weighs the same). Resolution is one hour (the derived state keeps hourly sums): an hour
-- counts when it overlaps [from, to), i.e. starts in [floor_hour(from), to). Rates not rounded.
SELECT epoch_ms(epoch_ms(h.bucket) // $bucket_ms::BIGINT * $bucket_ms::BIGINT) AS time,
       sum(h.rate_long_sum)::DOUBLE / sum(h.snapshots) AS funding_rate_long,
       sum(h.rate_short_sum)::DOUBLE / sum(h.snapshots) AS funding_rate_short
FROM funding_1h h
WHERE h.protocol = $protocol::VARCHAR AND ($market_variant::VARCHAR IS NULL OR h.market_variant = $market_variant::VARCHAR)
  AND ($market::VARCHAR IS NULL OR h.market = $market::VARCHAR)
  AND h.bucket >= epoch_ms($from::BIGINT // 3600000 * 3600000) AND h.bucket < epoch_ms($to::BIGINT)
GROUP BY 1
HAVING sum(h.snapshots) > 0
ORDER BY 1;
