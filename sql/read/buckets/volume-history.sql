-- $protocol VARCHAR: the protocol served ('alpha' or 'beta'; every endpoint of both runs this file).
-- `GET /v1/alpha/volume/history`: traded notional and trading fees per epoch-aligned
-- bucket, oldest first; buckets without fills omitted.
-- Parameters: $bucket_ms BIGINT bucket size in ms (a multiple of 5 minutes); $market VARCHAR or
-- NULL (NULL = protocol-wide, all variants); the window [from, to) as pieces:
-- $d_lo.., $h1_lo.., $m1_lo.., $f1_lo.. (BIGINT epoch ms): the pieces of the window, each read from
-- the coarsest table that covers it whole (a year of 1-day buckets reads ~365 daily rows
-- per variant, not ~100k 5-minute rows), computed by the route (server/read/buckets/history-pieces.ts
-- sumPieces): d = whole days (rollup_1d), h1/h2 = whole hours before/after them (rollup_1h),
-- m1/m2 = whole 5-minute buckets before/after those (rollup_5m), f1/f2 = the partial 5-minute
-- pieces at either edge (raw fills). They partition [from, to); each is one bound range, which
-- DuckDB folds into a table filter (zone maps on `bucket` / `time` skip the rest).
-- The pieces' bounds, each a range [lo, hi): $d_lo $d_hi $h1_lo $h1_hi $h2_lo $h2_hi $m1_lo $m1_hi
-- $m2_lo $m2_hi $f1_lo $f1_hi $f2_lo $f2_hi.
-- volume = |size delta| of non-liquidation fills (collateral edits add 0); fees = trading fee of
-- all fills, liquidation fills included (their liquidation fee is not). USD rounded to 6 decimals.
WITH pieces AS (
  SELECT epoch_ms(r.bucket) AS t_ms, r.fill_count AS n, r.volume_usd, r.fees_usd
  FROM rollup_1d r
  WHERE r.protocol = $protocol::VARCHAR AND ($market::VARCHAR IS NULL OR r.market = $market::VARCHAR)
    AND r.bucket >= epoch_ms($d_lo::BIGINT) AND r.bucket < epoch_ms($d_hi::BIGINT)
  UNION ALL
  SELECT epoch_ms(r.bucket), r.fill_count, r.volume_usd, r.fees_usd
  FROM rollup_1h r
  WHERE r.protocol = $protocol::VARCHAR AND ($market::VARCHAR IS NULL OR r.market = $market::VARCHAR)
    AND r.bucket >= epoch_ms($h1_lo::BIGINT) AND r.bucket < epoch_ms($h1_hi::BIGINT)
  UNION ALL
  SELECT epoch_ms(r.bucket), r.fill_count, r.volume_usd, r.fees_usd
  FROM rollup_1h r
  WHERE r.protocol = $protocol::VARCHAR AND ($market::VARCHAR IS NULL OR r.market = $market::VARCHAR)
    AND r.bucket >= epoch_ms($h2_lo::BIGINT) AND r.bucket < epoch_ms($h2_hi::BIGINT)
  UNION ALL
  SELECT epoch_ms(r.bucket), r.fill_count, r.volume_usd, r.fees_usd
  FROM rollup_5m r
  WHERE r.protocol = $protocol::VARCHAR AND ($market::VARCHAR IS NULL OR r.market = $market::VARCHAR)
    AND r.bucket >= epoch_ms($m1_lo::BIGINT) AND r.bucket < epoch_ms($m1_hi::BIGINT)
  UNION ALL
  SELECT epoch_ms(r.bucket), r.fill_count, r.volume_usd, r.fees_usd
  FROM rollup_5m r
  WHERE r.protocol = $protocol::VARCHAR AND ($market::VARCHAR IS NULL OR r.market = $market::VARCHAR)
    AND r.bucket >= epoch_ms($m2_lo::BIGINT) AND r.bucket < epoch_ms($m2_hi::BIGINT)
  UNION ALL
  SELECT epoch_ms(f.time), 1, CASE WHEN f.type <> 'liquidation' THEN abs(f.size_delta_usd) ELSE 0 END, f.fee_usd
  FROM fills f
  WHERE f.protocol = $protocol::VARCHAR AND ($market::VARCHAR IS NULL OR f.market = $market::VARCHAR)
    AND f.time >= epoch_ms($f1_lo::BIGINT) AND f.time < epoch_ms($f1_hi::BIGINT)
  UNION ALL
  SELECT epoch_ms(f.time), 1, CASE WHEN f.type <> 'liquidation' THEN abs(f.size_delta_usd) ELSE 0 END, f.fee_usd
  FROM fills f
  WHERE f.protocol = $protocol::VARCHAR AND ($market::VARCHAR IS NULL OR f.market = $market::VARCHAR)
    AND f.time >= epoch_ms($f2_lo::BIGINT) AND f.time < epoch_ms($f2_hi::BIGINT)
)
SELECT epoch_ms(t_ms // $bucket_ms::BIGINT * $bucket_ms::BIGINT) AS time,
       round(sum(volume_usd), 6)::DOUBLE AS volume_usd,
       round(sum(fees_usd), 6)::DOUBLE AS fees_usd
FROM pieces
GROUP BY 1
HAVING sum(n) > 0
ORDER BY 1;
