-- Endpoint 6, GET /v1/alpha/liquidations/history: liquidated notional by side, count and
-- liquidation fees per epoch-aligned bucket, oldest first; buckets without liquidations omitted.
-- Parameters: $from, $to BIGINT epoch ms (window [from, to)); $bucket_ms BIGINT bucket size in ms
-- (a multiple of 5 minutes); $market VARCHAR or NULL (NULL = protocol-wide, all variants).
-- USD rounded to 6 decimals. Exact at any edge: whole days / hours / 5-minute buckets from
-- rollup_1d_all / rollup_1h / rollup_5m, the partial 5-minute pieces at either edge from the raw
-- fills — the levels and bounds of sql/api/volume-history.sql (issue 7).
WITH pieces AS (
  SELECT epoch_ms(r.bucket) AS t_ms, r.liq_count AS n, r.liq_long_usd AS long_usd, r.liq_short_usd AS short_usd,
         r.liq_fees_usd AS fees_usd
  FROM rollup_1d_all r
  WHERE r.protocol = 'alpha' AND ($market::VARCHAR IS NULL OR r.market = $market::VARCHAR) AND r.liq_count > 0
    AND $bucket_ms::BIGINT % 86400000 = 0
    AND r.bucket >= epoch_ms(($from::BIGINT + 86399999) // 86400000 * 86400000)
    AND r.bucket < epoch_ms($to::BIGINT // 86400000 * 86400000)
  UNION ALL
  SELECT epoch_ms(r.bucket), r.liq_count, r.liq_long_usd, r.liq_short_usd, r.liq_fees_usd
  FROM rollup_1h r
  WHERE r.protocol = 'alpha' AND ($market::VARCHAR IS NULL OR r.market = $market::VARCHAR) AND r.liq_count > 0
    AND $bucket_ms::BIGINT % 3600000 = 0
    AND r.bucket >= epoch_ms(($from::BIGINT + 3599999) // 3600000 * 3600000)
    AND r.bucket < epoch_ms($to::BIGINT // 3600000 * 3600000)
    AND NOT ($bucket_ms::BIGINT % 86400000 = 0
             AND r.bucket >= epoch_ms(($from::BIGINT + 86399999) // 86400000 * 86400000)
             AND r.bucket < epoch_ms($to::BIGINT // 86400000 * 86400000))
  UNION ALL
  SELECT epoch_ms(r.bucket), r.liq_count, r.liq_long_usd, r.liq_short_usd, r.liq_fees_usd
  FROM rollup_5m r
  WHERE r.protocol = 'alpha' AND ($market::VARCHAR IS NULL OR r.market = $market::VARCHAR) AND r.liq_count > 0
    AND r.bucket >= epoch_ms(($from::BIGINT + 299999) // 300000 * 300000)
    AND r.bucket < epoch_ms($to::BIGINT // 300000 * 300000)
    AND NOT ($bucket_ms::BIGINT % 3600000 = 0
             AND r.bucket >= epoch_ms(($from::BIGINT + 3599999) // 3600000 * 3600000)
             AND r.bucket < epoch_ms($to::BIGINT // 3600000 * 3600000))
  UNION ALL
  SELECT epoch_ms(f.time), 1,
         CASE WHEN f.side = 'long' THEN -f.size_delta_usd ELSE 0 END,
         CASE WHEN f.side = 'short' THEN -f.size_delta_usd ELSE 0 END,
         coalesce(f.liquidation_fee_usd, 0)
  FROM fills f
  WHERE f.protocol = 'alpha' AND f.type = 'liquidation' AND ($market::VARCHAR IS NULL OR f.market = $market::VARCHAR)
    AND f.time >= epoch_ms($from::BIGINT) AND f.time < epoch_ms($to::BIGINT)
    AND NOT (f.time >= epoch_ms(($from::BIGINT + 299999) // 300000 * 300000)
             AND f.time < epoch_ms($to::BIGINT // 300000 * 300000))
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
