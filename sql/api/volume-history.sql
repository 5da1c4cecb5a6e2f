-- Endpoint 9, GET /v1/alpha/volume/history: traded notional and trading fees per epoch-aligned
-- bucket, oldest first; buckets without fills omitted.
-- Parameters: $from, $to BIGINT epoch ms (window [from, to)); $bucket_ms BIGINT bucket size in ms
-- (a multiple of 5 minutes); $market VARCHAR or NULL (NULL = protocol-wide, all variants).
-- volume = |size delta| of non-liquidation fills (collateral edits add 0); fees = trading fee of
-- all fills, liquidation fills included (their liquidation fee is not). USD rounded to 6 decimals.
-- Exact at any edge, each piece of the window read from the coarsest table that covers it whole
-- (issue 7: a year of 1-day buckets reads ~365 daily rows per variant, not ~100k 5-minute rows):
--   whole days   [ceil_1d(from), floor_1d(to)) from rollup_1d_all, when the bucket is whole days;
--   whole hours  [ceil_1h(from), floor_1h(to)) outside those days from rollup_1h, when the bucket
--                is whole hours (1h, 4h, 1d);
--   whole 5-minute buckets [ceil_5m(from), floor_5m(to)) outside those hours from rollup_5m;
--   the partial 5-minute pieces at either edge from the raw fills.
-- A coarse row never straddles an output bucket (the bucket is a multiple of its size, both
-- epoch-aligned), and every level holds exact sums of the finer one. Every piece is one range
-- [lo, hi) written on the parameters alone, so DuckDB folds it into a table filter and zone maps
-- on `bucket` / `time` skip the rest (a NOT (...) exclusion would scan the whole window).
WITH pieces AS (
  -- whole days
  SELECT epoch_ms(r.bucket) AS t_ms, r.fill_count AS n, r.volume_usd, r.fees_usd
  FROM rollup_1d_all r
  WHERE r.protocol = 'alpha' AND ($market::VARCHAR IS NULL OR r.market = $market::VARCHAR)
    AND $bucket_ms::BIGINT % 86400000 = 0 AND ($from::BIGINT + 86399999) // 86400000 * 86400000 < $to::BIGINT // 86400000 * 86400000
    AND r.bucket >= epoch_ms(($from::BIGINT + 86399999) // 86400000 * 86400000)
    AND r.bucket < epoch_ms($to::BIGINT // 86400000 * 86400000)
  UNION ALL
  -- whole hours before the days
  SELECT epoch_ms(r.bucket), r.fill_count, r.volume_usd, r.fees_usd
  FROM rollup_1h r
  WHERE r.protocol = 'alpha' AND ($market::VARCHAR IS NULL OR r.market = $market::VARCHAR)
    AND $bucket_ms::BIGINT % 3600000 = 0 AND ($from::BIGINT + 3599999) // 3600000 * 3600000 < $to::BIGINT // 3600000 * 3600000
    AND r.bucket >= epoch_ms(($from::BIGINT + 3599999) // 3600000 * 3600000)
    AND r.bucket < epoch_ms(CASE WHEN $bucket_ms::BIGINT % 86400000 = 0 AND ($from::BIGINT + 86399999) // 86400000 * 86400000 < $to::BIGINT // 86400000 * 86400000 THEN ($from::BIGINT + 86399999) // 86400000 * 86400000 ELSE $to::BIGINT // 3600000 * 3600000 END)
  UNION ALL
  -- whole hours after the days
  SELECT epoch_ms(r.bucket), r.fill_count, r.volume_usd, r.fees_usd
  FROM rollup_1h r
  WHERE r.protocol = 'alpha' AND ($market::VARCHAR IS NULL OR r.market = $market::VARCHAR)
    AND $bucket_ms::BIGINT % 3600000 = 0 AND ($from::BIGINT + 3599999) // 3600000 * 3600000 < $to::BIGINT // 3600000 * 3600000
    AND r.bucket >= epoch_ms(CASE WHEN $bucket_ms::BIGINT % 86400000 = 0 AND ($from::BIGINT + 86399999) // 86400000 * 86400000 < $to::BIGINT // 86400000 * 86400000 THEN $to::BIGINT // 86400000 * 86400000 ELSE $to::BIGINT // 3600000 * 3600000 END)
    AND r.bucket < epoch_ms($to::BIGINT // 3600000 * 3600000)
  UNION ALL
  -- whole 5-minute buckets before the hours
  SELECT epoch_ms(r.bucket), r.fill_count, r.volume_usd, r.fees_usd
  FROM rollup_5m r
  WHERE r.protocol = 'alpha' AND ($market::VARCHAR IS NULL OR r.market = $market::VARCHAR)
    AND r.bucket >= epoch_ms(($from::BIGINT + 299999) // 300000 * 300000)
    AND r.bucket < epoch_ms(CASE WHEN $bucket_ms::BIGINT % 3600000 = 0 AND ($from::BIGINT + 3599999) // 3600000 * 3600000 < $to::BIGINT // 3600000 * 3600000 THEN ($from::BIGINT + 3599999) // 3600000 * 3600000 ELSE $to::BIGINT // 300000 * 300000 END)
  UNION ALL
  -- whole 5-minute buckets after the hours
  SELECT epoch_ms(r.bucket), r.fill_count, r.volume_usd, r.fees_usd
  FROM rollup_5m r
  WHERE r.protocol = 'alpha' AND ($market::VARCHAR IS NULL OR r.market = $market::VARCHAR)
    AND r.bucket >= epoch_ms(CASE WHEN $bucket_ms::BIGINT % 3600000 = 0 AND ($from::BIGINT + 3599999) // 3600000 * 3600000 < $to::BIGINT // 3600000 * 3600000 THEN $to::BIGINT // 3600000 * 3600000 ELSE $to::BIGINT // 300000 * 300000 END)
    AND r.bucket < epoch_ms($to::BIGINT // 300000 * 300000)
  UNION ALL
  -- the partial 5-minute piece at the start
  SELECT epoch_ms(f.time), 1, CASE WHEN f.type <> 'liquidation' THEN abs(f.size_delta_usd) ELSE 0 END, f.fee_usd
  FROM fills f
  WHERE f.protocol = 'alpha' AND ($market::VARCHAR IS NULL OR f.market = $market::VARCHAR)
    AND f.time >= epoch_ms($from::BIGINT)
    AND f.time < epoch_ms(least(($from::BIGINT + 299999) // 300000 * 300000, $to::BIGINT))
  UNION ALL
  -- the partial 5-minute piece at the end
  SELECT epoch_ms(f.time), 1, CASE WHEN f.type <> 'liquidation' THEN abs(f.size_delta_usd) ELSE 0 END, f.fee_usd
  FROM fills f
  WHERE f.protocol = 'alpha' AND ($market::VARCHAR IS NULL OR f.market = $market::VARCHAR)
    AND f.time >= epoch_ms(greatest($to::BIGINT // 300000 * 300000, ($from::BIGINT + 299999) // 300000 * 300000))
    AND f.time < epoch_ms($to::BIGINT)
)
SELECT epoch_ms(t_ms // $bucket_ms::BIGINT * $bucket_ms::BIGINT) AS time,
       round(sum(volume_usd), 6)::DOUBLE AS volume_usd,
       round(sum(fees_usd), 6)::DOUBLE AS fees_usd
FROM pieces
GROUP BY 1
HAVING sum(n) > 0
ORDER BY 1;
