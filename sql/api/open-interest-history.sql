-- Endpoint 8, GET /v1/alpha/open-interest/history: long/short/total open interest at the end of
-- each epoch-aligned bucket, oldest first, one row per bucket with no gaps from the first bucket in
-- which the scope had any position (first fill, or first snapshot with OI > 0) or the bucket of
-- $from if later, up to the bucket holding min($to, $now).
-- Parameters: $market VARCHAR or NULL (NULL = protocol-wide: the sum over every alpha variant);
-- the window [from, to) with $now (service clock) and the bucket size as computed by the route
-- (server/http/history-pieces.ts oiPieces), all BIGINT epoch ms: $lo (the bucket of from),
-- $w_end = min(to, now), $b (bucket size, a multiple of 5 minutes), and the ranges
-- [$<name>_lo, $<name>_hi) of the pieces below ($bd_hi: everything before it).
-- State of one variant at an evaluation point e = min(bucket end, $to, $now):
--   * if the variant has a market snapshot before e: the OI of the latest one (oi_snapshot_5m keeps
--     the last snapshot of each 5-minute bucket, so when e is not on a 5-minute boundary and the
--     last snapshot of e's 5-minute bucket is at or after e, the previous bucket's last one is used);
--   * else (before its first snapshot) the replay of its fills: Σ signed size deltas per side of
--     every fill before e (rollup deltas, plus the raw fills of a partial 5-minute piece at e).
-- Values carry forward (a bucket without fills or snapshots keeps the previous state).
-- USD rounded to 6 decimals.
-- Plan (issue 7): each piece is one bound range, which DuckDB folds into a table filter (zone maps
-- on `bucket` skip the rest), and is read from the coarsest table that covers it whole and ends by
-- w_end (a coarse row never straddles an output bucket, and holds the last snapshot / the Σ deltas
-- of its finer rows): in the window, wd = whole days (oi_snapshot_1d / rollup_1d_all) when the
-- bucket is whole days, wh = whole hours (oi_snapshot_1h / rollup_1h) when it is whole hours, wm =
-- the 5-minute rows of the rest up to the end of w_end's bucket. What lies before lo is folded
-- into one row per variant: its last snapshot before lo (a "seed": bd days, bh hours, bm 5-minute
-- rows) or, for a variant without one, the Σ of its deltas before lo (rollup_1d, rollup_1h,
-- rollup_5m likewise). A seeded variant never needs the replay in the window (its snapshot
-- precedes every e > lo). A coarse snapshot row's has_oi = some 5-minute row in it had OI > 0.
WITH q AS (
  SELECT $lo::BIGINT AS lo, $w_end::BIGINT AS w_end, $b::BIGINT AS b
),
wsnaps AS (
  SELECT s.market || '|' || coalesce(s.market_variant, '') AS k, epoch_ms(s.time) AS t_ms,
         s.oi_long_usd, s.oi_short_usd, epoch_ms(s.bucket) AS bucket_ms, s.has_oi
  FROM oi_snapshot_1d s
  WHERE s.protocol = 'alpha' AND ($market::VARCHAR IS NULL OR s.market = $market::VARCHAR) AND s.bucket >= epoch_ms($wd_lo::BIGINT) AND s.bucket < epoch_ms($wd_hi::BIGINT)
  UNION ALL
  SELECT s.market || '|' || coalesce(s.market_variant, ''), epoch_ms(s.time),
         s.oi_long_usd, s.oi_short_usd, epoch_ms(s.bucket), s.has_oi
  FROM oi_snapshot_1h s
  WHERE s.protocol = 'alpha' AND ($market::VARCHAR IS NULL OR s.market = $market::VARCHAR) AND s.bucket >= epoch_ms($wh_lo::BIGINT) AND s.bucket < epoch_ms($wh_hi::BIGINT)
  UNION ALL
  SELECT s.market || '|' || coalesce(s.market_variant, ''), epoch_ms(s.time),
         s.oi_long_usd, s.oi_short_usd, epoch_ms(s.bucket), s.oi_long_usd + s.oi_short_usd > 0
  FROM oi_snapshot_5m s
  WHERE s.protocol = 'alpha' AND ($market::VARCHAR IS NULL OR s.market = $market::VARCHAR) AND s.bucket >= epoch_ms($wm_lo::BIGINT) AND s.bucket < epoch_ms($wm_hi::BIGINT)
),
wdeltas AS (
  SELECT r.market || '|' || coalesce(r.market_variant, '') AS k, epoch_ms(r.bucket) AS bucket_ms,
         r.oi_long_delta_usd, r.oi_short_delta_usd
  FROM rollup_1d_all r
  WHERE r.protocol = 'alpha' AND ($market::VARCHAR IS NULL OR r.market = $market::VARCHAR) AND r.bucket >= epoch_ms($wd_lo::BIGINT) AND r.bucket < epoch_ms($wd_hi::BIGINT)
  UNION ALL
  SELECT r.market || '|' || coalesce(r.market_variant, ''), epoch_ms(r.bucket), r.oi_long_delta_usd, r.oi_short_delta_usd
  FROM rollup_1h r
  WHERE r.protocol = 'alpha' AND ($market::VARCHAR IS NULL OR r.market = $market::VARCHAR) AND r.bucket >= epoch_ms($wh_lo::BIGINT) AND r.bucket < epoch_ms($wh_hi::BIGINT)
  UNION ALL
  SELECT r.market || '|' || coalesce(r.market_variant, ''), epoch_ms(r.bucket), r.oi_long_delta_usd, r.oi_short_delta_usd
  FROM rollup_5m r
  WHERE r.protocol = 'alpha' AND ($market::VARCHAR IS NULL OR r.market = $market::VARCHAR) AND r.bucket >= epoch_ms($wm_lo::BIGINT) AND r.bucket < epoch_ms($wm_hi::BIGINT)
),
before_snaps AS (
  SELECT s.market || '|' || coalesce(s.market_variant, '') AS k, s.time, s.oi_long_usd, s.oi_short_usd, s.has_oi
  FROM oi_snapshot_1d s
  WHERE s.protocol = 'alpha' AND ($market::VARCHAR IS NULL OR s.market = $market::VARCHAR) AND s.bucket < epoch_ms($bd_hi::BIGINT)
  UNION ALL
  SELECT s.market || '|' || coalesce(s.market_variant, ''), s.time, s.oi_long_usd, s.oi_short_usd, s.has_oi
  FROM oi_snapshot_1h s
  WHERE s.protocol = 'alpha' AND ($market::VARCHAR IS NULL OR s.market = $market::VARCHAR) AND s.bucket >= epoch_ms($bh_lo::BIGINT) AND s.bucket < epoch_ms($bh_hi::BIGINT)
  UNION ALL
  SELECT s.market || '|' || coalesce(s.market_variant, ''), s.time, s.oi_long_usd, s.oi_short_usd, s.oi_long_usd + s.oi_short_usd > 0
  FROM oi_snapshot_5m s
  WHERE s.protocol = 'alpha' AND ($market::VARCHAR IS NULL OR s.market = $market::VARCHAR) AND s.bucket >= epoch_ms($bm_lo::BIGINT) AND s.bucket < epoch_ms($bm_hi::BIGINT)
),
seed AS (
  SELECT k, arg_max(oi_long_usd, time) AS oi_long_usd,
         arg_max(oi_short_usd, time) AS oi_short_usd, bool_or(has_oi) AS had_oi
  FROM before_snaps GROUP BY k
),
before_deltas AS (
  SELECT k, sum(oi_long_delta_usd) AS long_usd, sum(oi_short_delta_usd) AS short_usd
  FROM (
    SELECT r.market || '|' || coalesce(r.market_variant, '') AS k, r.oi_long_delta_usd, r.oi_short_delta_usd
    FROM rollup_1d r
    WHERE r.protocol = 'alpha' AND ($market::VARCHAR IS NULL OR r.market = $market::VARCHAR) AND r.bucket < epoch_ms($bd_hi::BIGINT)
    UNION ALL
    SELECT r.market || '|' || coalesce(r.market_variant, ''), r.oi_long_delta_usd, r.oi_short_delta_usd
    FROM rollup_1h r
    WHERE r.protocol = 'alpha' AND ($market::VARCHAR IS NULL OR r.market = $market::VARCHAR) AND r.bucket >= epoch_ms($bh_lo::BIGINT) AND r.bucket < epoch_ms($bh_hi::BIGINT)
    UNION ALL
    SELECT r.market || '|' || coalesce(r.market_variant, ''), r.oi_long_delta_usd, r.oi_short_delta_usd
    FROM rollup_5m r
    WHERE r.protocol = 'alpha' AND ($market::VARCHAR IS NULL OR r.market = $market::VARCHAR) AND r.bucket >= epoch_ms($bm_lo::BIGINT) AND r.bucket < epoch_ms($bm_hi::BIGINT))
  GROUP BY k
),
first_position AS (
  SELECT CASE WHEN (SELECT count(*) FROM before_deltas) > 0 OR (SELECT count(*) FROM seed WHERE had_oi) > 0
              THEN q.lo
              ELSE (SELECT min(bucket_ms) FROM (
                      SELECT bucket_ms FROM wdeltas
                      UNION ALL SELECT bucket_ms FROM wsnaps WHERE has_oi)) // q.b * q.b
         END AS start_ms
  FROM q
),
scope AS (
  SELECT k FROM wsnaps UNION SELECT k FROM wdeltas UNION SELECT k FROM seed UNION SELECT k FROM before_deltas
),
-- per variant and bucket (from lo): the bucket's last snapshot before w_end, Σ deltas of the
-- 5-minute buckets that end by min(bucket end, w_end); carried forward / summed by window functions
snap_b AS (
  SELECT s.k, s.t_ms // q.b * q.b AS b_start,
         arg_max(s.oi_long_usd, s.t_ms) AS long_usd, arg_max(s.oi_short_usd, s.t_ms) AS short_usd
  FROM wsnaps s, q WHERE s.t_ms < q.w_end GROUP BY ALL
),
delta_b AS (
  SELECT d.k, d.bucket_ms // q.b * q.b AS b_start,
         sum(d.oi_long_delta_usd) AS long_usd, sum(d.oi_short_delta_usd) AS short_usd
  FROM wdeltas d, q WHERE d.bucket_ms < q.w_end // 300000 * 300000 GROUP BY ALL
),
grid AS (
  SELECT s.k, g.b_start
  FROM scope s, (SELECT unnest(range(q.lo, q.w_end, q.b)) AS b_start FROM q) g
),
carried AS (
  SELECT g.k, g.b_start,
         count(sb.k) OVER w > 0 AS has_snap,
         last_value(sb.long_usd IGNORE NULLS) OVER w AS s_long,
         last_value(sb.short_usd IGNORE NULLS) OVER w AS s_short,
         sum(db.long_usd) OVER w AS d_long, sum(db.short_usd) OVER w AS d_short
  FROM grid g
  LEFT JOIN snap_b sb ON sb.k = g.k AND sb.b_start = g.b_start
  LEFT JOIN delta_b db ON db.k = g.k AND db.b_start = g.b_start
  WINDOW w AS (PARTITION BY g.k ORDER BY g.b_start ROWS UNBOUNDED PRECEDING)
),
tail AS (
  SELECT f.market || '|' || coalesce(f.market_variant, '') AS k,
         coalesce(sum(f.size_delta_usd) FILTER (f.side = 'long'), 0) AS long_usd,
         coalesce(sum(f.size_delta_usd) FILTER (f.side = 'short'), 0) AS short_usd
  FROM fills f
  WHERE f.protocol = 'alpha' AND ($market::VARCHAR IS NULL OR f.market = $market::VARCHAR)
    AND f.time >= epoch_ms($tail_lo::BIGINT) AND f.time < epoch_ms($tail_hi::BIGINT)
  GROUP BY 1
),
state AS (
  SELECT c.b_start,
         CASE WHEN c.has_snap THEN c.s_long WHEN sd.k IS NOT NULL THEN sd.oi_long_usd
              ELSE coalesce(bd.long_usd, 0) + coalesce(c.d_long, 0)
                   + CASE WHEN c.b_start + q.b >= q.w_end THEN coalesce(t.long_usd, 0) ELSE 0 END END AS long_usd,
         CASE WHEN c.has_snap THEN c.s_short WHEN sd.k IS NOT NULL THEN sd.oi_short_usd
              ELSE coalesce(bd.short_usd, 0) + coalesce(c.d_short, 0)
                   + CASE WHEN c.b_start + q.b >= q.w_end THEN coalesce(t.short_usd, 0) ELSE 0 END END AS short_usd
  FROM carried c
  LEFT JOIN seed sd ON sd.k = c.k
  LEFT JOIN before_deltas bd ON bd.k = c.k
  LEFT JOIN tail t ON t.k = c.k
  CROSS JOIN q
  CROSS JOIN first_position f
  WHERE c.b_start >= f.start_ms
)
SELECT epoch_ms(b_start) AS time,
       round(sum(long_usd), 6)::DOUBLE AS long_usd,
       round(sum(short_usd), 6)::DOUBLE AS short_usd,
       round(sum(long_usd) + sum(short_usd), 6)::DOUBLE AS total_usd
FROM state
GROUP BY b_start
ORDER BY b_start;
