-- Endpoint 9, GET /v1/alpha/volume/history: traded notional and trading fees per epoch-aligned
-- bucket, oldest first; buckets without fills omitted.
-- Parameters: $from, $to BIGINT epoch ms (window [from, to)); $bucket_ms BIGINT bucket size in ms
-- (a multiple of 5 minutes); $market VARCHAR or NULL (NULL = protocol-wide, all variants).
-- volume = |size delta| of non-liquidation fills (collateral edits add 0); fees = trading fee of
-- all fills, liquidation fills included (their liquidation fee is not). Exact at any edge: whole
-- 5-minute buckets inside [ceil5(from), floor5(to)) come from rollup_5m, the partial 5-minute
-- pieces at either edge from the raw fills. USD rounded to 6 decimals.
WITH edges AS (
  SELECT ($from::BIGINT + 299999) // 300000 * 300000 AS inner_from,
         $to::BIGINT // 300000 * 300000 AS inner_to
),
pieces AS (
  SELECT epoch_ms(r.bucket) AS t_ms, r.fill_count AS n, r.volume_usd, r.fees_usd
  FROM rollup_5m r, edges e
  WHERE r.protocol = 'alpha' AND ($market::VARCHAR IS NULL OR r.market = $market::VARCHAR)
    AND r.bucket >= epoch_ms(e.inner_from) AND r.bucket < epoch_ms(e.inner_to)
  UNION ALL
  SELECT epoch_ms(f.time), 1,
         CASE WHEN f.type <> 'liquidation' THEN abs(f.size_delta_usd) ELSE 0 END,
         f.fee_usd
  FROM fills f, edges e
  WHERE f.protocol = 'alpha' AND ($market::VARCHAR IS NULL OR f.market = $market::VARCHAR)
    AND f.time >= epoch_ms($from::BIGINT) AND f.time < epoch_ms($to::BIGINT)
    AND (f.time < epoch_ms(e.inner_from) OR f.time >= epoch_ms(e.inner_to))
)
SELECT epoch_ms(t_ms // $bucket_ms::BIGINT * $bucket_ms::BIGINT) AS time,
       round(sum(volume_usd), 6)::DOUBLE AS volume_usd,
       round(sum(fees_usd), 6)::DOUBLE AS fees_usd
FROM pieces
GROUP BY 1
HAVING sum(n) > 0
ORDER BY 1;
