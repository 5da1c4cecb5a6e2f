-- $protocol VARCHAR: the protocol served ('alpha' or 'beta'; every endpoint of both runs this file).
-- `GET /v1/alpha/open-interest/history`: long/short/total open interest at the end of
-- each epoch-aligned bucket, oldest first, one row per bucket with no gaps from the first bucket in
-- which the scope had any position (first fill, or first snapshot with OI > 0) or the bucket of
-- `from` if later, up to the bucket holding min(`to`, now).
-- Parameters: $market VARCHAR or NULL (NULL = protocol-wide: the sum over every alpha variant);
-- the window [from, to) with now (the service clock) and the bucket size as computed by the route
-- (server/read/buckets/history-pieces.ts oiPieces), all BIGINT epoch ms: $w_end = min(to, now), $b (bucket
-- size, a multiple of 5 minutes), and the ranges [$<name>_lo, $<name>_hi) of the pieces below
-- ($bd_hi: everything before it; lo = $wd_lo, the bucket of from): $wd_lo $wd_hi $wh_lo $wh_hi
-- $wm_lo $wm_hi $bh_lo $bh_hi $bm_lo $bm_hi $tail_lo $tail_hi.
-- State of one variant at an evaluation point e = min(bucket end, to, now):
--   * if the variant has a market snapshot before e: the OI of the latest one (oi_snapshot_5m keeps
--     the last snapshot of each 5-minute bucket, so when e is not on a 5-minute boundary and the
--     last snapshot of e's 5-minute bucket is at or after e, the previous bucket's last one is used);
--   * else (before its first snapshot) the replay of its fills: Σ signed size deltas per side of
--     every fill before e (rollup deltas, plus the raw fills of a partial 5-minute piece at e).
-- Values carry forward (a bucket without fills or snapshots keeps the previous state).
-- This query returns the per-variant pieces of that computation as tagged rows; the route carries
-- them forward over the buckets and sums the variants (server/read/buckets/oi-series.ts), which is far
-- cheaper than planning the grid, window functions and joins in SQL on every request.
-- Amounts are exact micro-dollars as VARCHAR (parsed as BigInt). Rows, by `kind`:
--   ws    (k, t = bucket start, l, s): the bucket's last snapshot before w_end, per variant
--   wd    (k, t = bucket start, l, s): Σ OI deltas of the bucket's 5-minute buckets that end by w_end
--   sc    (k, t): a variant seen in the window; t = its first bucket with deltas or OI > 0 (or NULL)
--   seed  (k, l, s, f): the variant's last snapshot before lo; f = some snapshot before lo had OI > 0
--   bd    (k, l, s): Σ OI deltas of the variant before lo
--   tail  (k, l, s): Σ signed size deltas per side of the raw fills in [floor_5m(w_end), w_end)
-- Plan: each piece is one bound range, which DuckDB folds into a table filter (zone maps
-- on `bucket` skip the rest), and is read from the coarsest table that covers it whole and ends by
-- w_end (a coarse row never straddles an output bucket, and holds the last snapshot / the Σ deltas
-- of its finer rows): in the window, wd = whole days (oi_snapshot_1d / rollup_1d) when the
-- bucket is whole days, wh = whole hours (oi_snapshot_1h / rollup_1h) when it is whole hours, wm =
-- the 5-minute rows of the rest up to the end of w_end's bucket. What lies before lo is folded
-- into one row per variant: its last snapshot before lo (a "seed": bd days, bh hours, bm 5-minute
-- rows) or, for a variant without one, the Σ of its deltas before lo (rollup_1d, rollup_1h,
-- rollup_5m likewise). A seeded variant never needs the replay in the window (its snapshot
-- precedes every e > lo). A coarse snapshot row's has_oi = some 5-minute row in it had OI > 0.
WITH wsnaps AS (
  SELECT s.market || '|' || coalesce(s.market_variant, '') AS k, epoch_ms(s.time) AS t_ms,
         s.oi_long_usd, s.oi_short_usd, epoch_ms(s.bucket) AS bucket_ms, s.has_oi
  FROM oi_snapshot_1d s
  WHERE s.protocol = $protocol::VARCHAR AND ($market::VARCHAR IS NULL OR s.market = $market::VARCHAR) AND s.bucket >= epoch_ms($wd_lo::BIGINT) AND s.bucket < epoch_ms($wd_hi::BIGINT)
  UNION ALL
  SELECT s.market || '|' || coalesce(s.market_variant, ''), epoch_ms(s.time),
         s.oi_long_usd, s.oi_short_usd, epoch_ms(s.bucket), s.has_oi
  FROM oi_snapshot_1h s
  WHERE s.protocol = $protocol::VARCHAR AND ($market::VARCHAR IS NULL OR s.market = $market::VARCHAR) AND s.bucket >= epoch_ms($wh_lo::BIGINT) AND s.bucket < epoch_ms($wh_hi::BIGINT)
  UNION ALL
  SELECT s.market || '|' || coalesce(s.market_variant, ''), epoch_ms(s.time),
         s.oi_long_usd, s.oi_short_usd, epoch_ms(s.bucket), s.oi_long_usd + s.oi_short_usd > 0
  FROM oi_snapshot_5m s
  WHERE s.protocol = $protocol::VARCHAR AND ($market::VARCHAR IS NULL OR s.market = $market::VARCHAR) AND s.bucket >= epoch_ms($wm_lo::BIGINT) AND s.bucket < epoch_ms($wm_hi::BIGINT)
),
wdeltas AS (
  SELECT r.market || '|' || coalesce(r.market_variant, '') AS k, epoch_ms(r.bucket) AS bucket_ms,
         r.oi_long_delta_usd, r.oi_short_delta_usd
  FROM rollup_1d r
  WHERE r.protocol = $protocol::VARCHAR AND ($market::VARCHAR IS NULL OR r.market = $market::VARCHAR) AND r.bucket >= epoch_ms($wd_lo::BIGINT) AND r.bucket < epoch_ms($wd_hi::BIGINT)
  UNION ALL
  SELECT r.market || '|' || coalesce(r.market_variant, ''), epoch_ms(r.bucket), r.oi_long_delta_usd, r.oi_short_delta_usd
  FROM rollup_1h r
  WHERE r.protocol = $protocol::VARCHAR AND ($market::VARCHAR IS NULL OR r.market = $market::VARCHAR) AND r.bucket >= epoch_ms($wh_lo::BIGINT) AND r.bucket < epoch_ms($wh_hi::BIGINT)
  UNION ALL
  SELECT r.market || '|' || coalesce(r.market_variant, ''), epoch_ms(r.bucket), r.oi_long_delta_usd, r.oi_short_delta_usd
  FROM rollup_5m r
  WHERE r.protocol = $protocol::VARCHAR AND ($market::VARCHAR IS NULL OR r.market = $market::VARCHAR) AND r.bucket >= epoch_ms($wm_lo::BIGINT) AND r.bucket < epoch_ms($wm_hi::BIGINT)
),
before_snaps AS (
  SELECT s.market || '|' || coalesce(s.market_variant, '') AS k, s.time, s.oi_long_usd, s.oi_short_usd, s.has_oi
  FROM oi_snapshot_1d s
  WHERE s.protocol = $protocol::VARCHAR AND ($market::VARCHAR IS NULL OR s.market = $market::VARCHAR) AND s.bucket < epoch_ms($bd_hi::BIGINT)
  UNION ALL
  SELECT s.market || '|' || coalesce(s.market_variant, ''), s.time, s.oi_long_usd, s.oi_short_usd, s.has_oi
  FROM oi_snapshot_1h s
  WHERE s.protocol = $protocol::VARCHAR AND ($market::VARCHAR IS NULL OR s.market = $market::VARCHAR) AND s.bucket >= epoch_ms($bh_lo::BIGINT) AND s.bucket < epoch_ms($bh_hi::BIGINT)
  UNION ALL
  SELECT s.market || '|' || coalesce(s.market_variant, ''), s.time, s.oi_long_usd, s.oi_short_usd, s.oi_long_usd + s.oi_short_usd > 0
  FROM oi_snapshot_5m s
  WHERE s.protocol = $protocol::VARCHAR AND ($market::VARCHAR IS NULL OR s.market = $market::VARCHAR) AND s.bucket >= epoch_ms($bm_lo::BIGINT) AND s.bucket < epoch_ms($bm_hi::BIGINT)
),
before_delta_rows AS (
  SELECT r.market || '|' || coalesce(r.market_variant, '') AS k, r.oi_long_delta_usd, r.oi_short_delta_usd
  FROM rollup_1d r
  WHERE r.protocol = $protocol::VARCHAR AND ($market::VARCHAR IS NULL OR r.market = $market::VARCHAR) AND r.bucket < epoch_ms($bd_hi::BIGINT)
  UNION ALL
  SELECT r.market || '|' || coalesce(r.market_variant, ''), r.oi_long_delta_usd, r.oi_short_delta_usd
  FROM rollup_1h r
  WHERE r.protocol = $protocol::VARCHAR AND ($market::VARCHAR IS NULL OR r.market = $market::VARCHAR) AND r.bucket >= epoch_ms($bh_lo::BIGINT) AND r.bucket < epoch_ms($bh_hi::BIGINT)
  UNION ALL
  SELECT r.market || '|' || coalesce(r.market_variant, ''), r.oi_long_delta_usd, r.oi_short_delta_usd
  FROM rollup_5m r
  WHERE r.protocol = $protocol::VARCHAR AND ($market::VARCHAR IS NULL OR r.market = $market::VARCHAR) AND r.bucket >= epoch_ms($bm_lo::BIGINT) AND r.bucket < epoch_ms($bm_hi::BIGINT)
),
ws AS (
  SELECT k, t_ms // $b::BIGINT * $b::BIGINT AS t,
         arg_max(oi_long_usd, t_ms) AS l, arg_max(oi_short_usd, t_ms) AS s
  FROM wsnaps WHERE t_ms < $w_end::BIGINT GROUP BY ALL
),
wd AS (
  SELECT k, bucket_ms // $b::BIGINT * $b::BIGINT AS t,
         sum(oi_long_delta_usd) AS l, sum(oi_short_delta_usd) AS s
  FROM wdeltas WHERE bucket_ms < $w_end::BIGINT // 300000 * 300000 GROUP BY ALL
),
sc AS (
  SELECT k, min(bucket_ms) AS t FROM (
    SELECT k, bucket_ms FROM wdeltas
    UNION ALL SELECT k, CASE WHEN has_oi THEN bucket_ms END FROM wsnaps)
  GROUP BY k
),
seed AS (
  SELECT k, arg_max(oi_long_usd, time) AS l, arg_max(oi_short_usd, time) AS s, bool_or(has_oi) AS f
  FROM before_snaps GROUP BY k
),
bd AS (
  SELECT k, sum(oi_long_delta_usd) AS l, sum(oi_short_delta_usd) AS s FROM before_delta_rows GROUP BY k
),
tail AS (
  SELECT f.market || '|' || coalesce(f.market_variant, '') AS k,
         coalesce(sum(f.size_delta_usd) FILTER (f.side = 'long'), 0) AS l,
         coalesce(sum(f.size_delta_usd) FILTER (f.side = 'short'), 0) AS s
  FROM fills f
  WHERE f.protocol = $protocol::VARCHAR AND ($market::VARCHAR IS NULL OR f.market = $market::VARCHAR)
    AND f.time >= epoch_ms($tail_lo::BIGINT) AND f.time < epoch_ms($tail_hi::BIGINT)
  GROUP BY 1
)
SELECT 'ws' AS kind, k, t, (l::DECIMAL(38,6) * 1000000)::HUGEINT::VARCHAR AS l, (s::DECIMAL(38,6) * 1000000)::HUGEINT::VARCHAR AS s, NULL::BOOLEAN AS f FROM ws
UNION ALL SELECT 'wd', k, t, (l::DECIMAL(38,6) * 1000000)::HUGEINT::VARCHAR, (s::DECIMAL(38,6) * 1000000)::HUGEINT::VARCHAR, NULL FROM wd
UNION ALL SELECT 'sc', k, t, NULL, NULL, NULL FROM sc
UNION ALL SELECT 'seed', k, NULL, (l::DECIMAL(38,6) * 1000000)::HUGEINT::VARCHAR, (s::DECIMAL(38,6) * 1000000)::HUGEINT::VARCHAR, f FROM seed
UNION ALL SELECT 'bd', k, NULL, (l::DECIMAL(38,6) * 1000000)::HUGEINT::VARCHAR, (s::DECIMAL(38,6) * 1000000)::HUGEINT::VARCHAR, NULL FROM bd
UNION ALL SELECT 'tail', k, NULL, (l::DECIMAL(38,6) * 1000000)::HUGEINT::VARCHAR, (s::DECIMAL(38,6) * 1000000)::HUGEINT::VARCHAR, NULL FROM tail;
