-- Endpoint 8, GET /v1/alpha/open-interest/history: long/short/total open interest at the end of
-- each epoch-aligned bucket, oldest first, one row per bucket with no gaps from the first bucket in
-- which the scope had any position (first fill, or first snapshot with OI > 0) or the bucket of
-- $from if later, up to the bucket holding min($to, $now).
-- Parameters: $from, $to BIGINT epoch ms (window [from, to)); $now BIGINT epoch ms (service clock);
-- $bucket_ms BIGINT bucket size in ms (a multiple of 5 minutes); $market VARCHAR or NULL
-- (NULL = protocol-wide: the sum over every alpha variant).
-- State of one variant at an evaluation point e = min(bucket end, $to, $now):
--   * if the variant has a market snapshot before e: the OI of the latest one (oi_snapshot_5m keeps
--     the last snapshot of each 5-minute bucket, so when e is not on a 5-minute boundary and the
--     last snapshot of e's 5-minute bucket is at or after e, the previous bucket's last one is used);
--   * else (before its first snapshot) the replay of its fills: Σ signed size deltas per side of
--     every fill before e (rollup_5m deltas, plus the raw fills of a partial 5-minute piece at e).
-- Values carry forward (a bucket without fills or snapshots keeps the previous state).
-- USD rounded to 6 decimals.
WITH p AS (
  SELECT $from::BIGINT AS w_from, least($to::BIGINT, $now::BIGINT) AS w_end, $bucket_ms::BIGINT AS b
),
snaps AS (
  SELECT market || '|' || coalesce(market_variant, '') AS k, epoch_ms(time) AS t_ms, oi_long_usd, oi_short_usd,
         epoch_ms(bucket) AS bucket_ms
  FROM oi_snapshot_5m
  WHERE protocol = 'alpha' AND ($market::VARCHAR IS NULL OR market = $market::VARCHAR)
),
deltas AS (
  SELECT market || '|' || coalesce(market_variant, '') AS k, epoch_ms(bucket) AS bucket_ms,
         oi_long_delta_usd, oi_short_delta_usd
  FROM rollup_5m
  WHERE protocol = 'alpha' AND ($market::VARCHAR IS NULL OR market = $market::VARCHAR)
),
scope AS (SELECT DISTINCT k FROM snaps UNION SELECT DISTINCT k FROM deltas),
first_position AS (
  SELECT min(bucket_ms) AS first_ms FROM (
    SELECT bucket_ms FROM deltas
    UNION ALL SELECT bucket_ms FROM snaps WHERE oi_long_usd + oi_short_usd > 0)
),
buckets AS (
  SELECT t AS b_start, least(t + p.b, p.w_end) AS e
  FROM (SELECT unnest(range(greatest(f.first_ms, p.w_from) // p.b * p.b, p.w_end, p.b)) AS t
        FROM p, first_position f WHERE f.first_ms IS NOT NULL) g, p
),
first_snapshot AS (SELECT k, min(bucket_ms) AS fs FROM snaps GROUP BY k),
-- the replay is only ever read before a variant's first snapshot bucket
cum AS (
  SELECT d.k, d.bucket_ms + 300000 AS end_ms,
         sum(d.oi_long_delta_usd) OVER w AS long_usd, sum(d.oi_short_delta_usd) OVER w AS short_usd
  FROM deltas d LEFT JOIN first_snapshot f ON f.k = d.k
  WHERE f.fs IS NULL OR d.bucket_ms < f.fs
  WINDOW w AS (PARTITION BY d.k ORDER BY d.bucket_ms ROWS UNBOUNDED PRECEDING)
),
tail AS (
  SELECT f.market || '|' || coalesce(f.market_variant, '') AS k,
         coalesce(sum(f.size_delta_usd) FILTER (f.side = 'long'), 0) AS long_usd,
         coalesce(sum(f.size_delta_usd) FILTER (f.side = 'short'), 0) AS short_usd
  FROM fills f, p
  WHERE f.protocol = 'alpha' AND ($market::VARCHAR IS NULL OR f.market = $market::VARCHAR)
    AND f.time >= epoch_ms(p.w_end // 300000 * 300000) AND f.time < epoch_ms(p.w_end)
  GROUP BY 1
),
grid AS (
  SELECT s.k, b.b_start, b.e, b.e // 300000 * 300000 AS e5 FROM scope s, buckets b
),
state AS (
  SELECT g.b_start,
         CASE WHEN sn.t_ms IS NOT NULL THEN sn.oi_long_usd
              ELSE coalesce(c.long_usd, 0) + CASE WHEN g.e = p.w_end THEN coalesce(t.long_usd, 0) ELSE 0 END END AS long_usd,
         CASE WHEN sn.t_ms IS NOT NULL THEN sn.oi_short_usd
              ELSE coalesce(c.short_usd, 0) + CASE WHEN g.e = p.w_end THEN coalesce(t.short_usd, 0) ELSE 0 END END AS short_usd
  FROM grid g
  ASOF LEFT JOIN snaps sn ON sn.k = g.k AND g.e > sn.t_ms
  ASOF LEFT JOIN cum c ON c.k = g.k AND g.e5 >= c.end_ms
  LEFT JOIN tail t ON t.k = g.k
  CROSS JOIN p
)
SELECT epoch_ms(b_start) AS time,
       round(sum(long_usd), 6)::DOUBLE AS long_usd,
       round(sum(short_usd), 6)::DOUBLE AS short_usd,
       round(sum(long_usd) + sum(short_usd), 6)::DOUBLE AS total_usd
FROM state
GROUP BY b_start
ORDER BY b_start;
