-- Endpoint 6, GET /v1/alpha/liquidations/history: liquidated notional by side, count and
-- liquidation fees per epoch-aligned bucket, oldest first; buckets without liquidations omitted.
-- Parameters: $from, $to BIGINT epoch ms (window [from, to)); $bucket_ms BIGINT bucket size in ms
-- (a multiple of 5 minutes); $market VARCHAR or NULL (NULL = protocol-wide, all variants).
-- Exact at any edge: whole 5-minute rollup buckets inside [ceil5(from), floor5(to)) come from
-- rollup_5m; the partial 5-minute pieces at either edge are read from the raw fills.
-- USD rounded to 6 decimals.
WITH edges AS (
  SELECT ($from::BIGINT + 299999) // 300000 * 300000 AS inner_from,
         $to::BIGINT // 300000 * 300000 AS inner_to
),
pieces AS (
  SELECT epoch_ms(r.bucket) AS t_ms, r.liq_count AS n, r.liq_long_usd AS long_usd, r.liq_short_usd AS short_usd,
         r.liq_fees_usd AS fees_usd
  FROM rollup_5m r, edges e
  WHERE r.protocol = 'alpha' AND ($market::VARCHAR IS NULL OR r.market = $market::VARCHAR)
    AND r.bucket >= epoch_ms(e.inner_from) AND r.bucket < epoch_ms(e.inner_to) AND r.liq_count > 0
  UNION ALL
  SELECT epoch_ms(f.time), 1,
         CASE WHEN f.side = 'long' THEN -f.size_delta_usd ELSE 0 END,
         CASE WHEN f.side = 'short' THEN -f.size_delta_usd ELSE 0 END,
         coalesce(f.liquidation_fee_usd, 0)
  FROM fills f, edges e
  WHERE f.protocol = 'alpha' AND f.type = 'liquidation' AND ($market::VARCHAR IS NULL OR f.market = $market::VARCHAR)
    AND f.time >= epoch_ms($from::BIGINT) AND f.time < epoch_ms($to::BIGINT)
    AND (f.time < epoch_ms(e.inner_from) OR f.time >= epoch_ms(e.inner_to))
)
SELECT epoch_ms(t_ms // $bucket_ms::BIGINT * $bucket_ms::BIGINT) AS time,
       sum(n)::INTEGER AS count,
       round(sum(long_usd), 6)::DOUBLE AS long_usd,
       round(sum(short_usd), 6)::DOUBLE AS short_usd,
       round(sum(long_usd) + sum(short_usd), 6)::DOUBLE AS total_usd,
       round(sum(fees_usd), 6)::DOUBLE AS fees_usd
FROM pieces
GROUP BY 1
HAVING sum(n) > 0
ORDER BY 1;
