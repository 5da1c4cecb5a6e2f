-- GET /v1/{protocol}/prices/history: OHLC of one market's index price per epoch-aligned bucket,
-- oldest first; buckets without an observation omitted. Observations: the market snapshots (every
-- variant of the market) and, before the market's first snapshot, the index price the fills carry.
-- open / close = the price of the first / last observation of the bucket by (time, fills before
-- snapshots, a snapshot's variant, a fill's seq: one snapshot per variant and instant), high / low
-- = max / min.
-- Whole 5-minute buckets come from the derived price levels, partial ones from raw observations:
-- - snapshots (src 1) over [inner_from, inner_to) as pieces snap_*, each read from the coarsest
--   level that covers it whole (server/read/buckets/history-pieces.ts sumPieces: d = whole days from
--   price_1d, h1 / h2 = whole hours before / after them from price_1h, m1 / m2 = the 5-minute
--   buckets before / after those from price_5m); the window's partial 5-minute edges
--   [$from, inner_from) and [inner_to, to) from the journal's Parquet files of the edge days
--   (the edge CTE, spliced in by server/read/prices/price-candles.ts: t_us, price, k, or no row);
-- - fills (src 0), before the first snapshot only: the same pieces fill_* over
--   [inner_from, fill_inner_to) (the 5-minute bucket of the first snapshot excluded), derived
--   `fills` over [$from, $fill_lo_to) and [$fill_hi_from, $fill_to) (the route computes these
--   bounds; they tile [$from, $fill_to)).
-- Every output interval is a multiple of the level it reads (days only for whole-day intervals,
-- hours for whole-hour ones), so a level's row lies in one output bucket.
-- Parameters: $protocol VARCHAR, $market VARCHAR; BIGINT epoch ms: $from, $fill_lo_to,
-- $fill_hi_from, $fill_to, and the pieces' bounds, each a range [lo, hi): $snap_d_lo $snap_d_hi
-- $snap_h1_lo $snap_h1_hi $snap_h2_lo $snap_h2_hi $snap_m1_lo $snap_m1_hi $snap_m2_lo $snap_m2_hi
-- $fill_d_lo $fill_d_hi $fill_h1_lo $fill_h1_hi $fill_h2_lo $fill_h2_hi $fill_m1_lo $fill_m1_hi
-- $fill_m2_lo $fill_m2_hi; $bucket_ms BIGINT.
WITH edge AS (__EDGE__),
-- the raw observations (edge snapshots, fills) reduced to 5-minute rows first, with full keys
raw AS (
  SELECT t_us, price, 1 AS src, k, 0::BIGINT AS seq FROM edge
  UNION ALL
  SELECT epoch_us(time), index_price, 0, '', seq
  FROM fills
  WHERE protocol = $protocol::VARCHAR AND market = $market::VARCHAR
    AND time >= epoch_ms($from::BIGINT) AND time < epoch_ms($fill_lo_to::BIGINT)
  UNION ALL
  SELECT epoch_us(time), index_price, 0, '', seq
  FROM fills
  WHERE protocol = $protocol::VARCHAR AND market = $market::VARCHAR
    AND time >= epoch_ms($fill_hi_from::BIGINT) AND time < epoch_ms($fill_to::BIGINT)
),
-- day, hour and 5-minute rows: inside one output bucket their first (last) times order them
-- strictly (the pieces are disjoint; in the first snapshot's bucket every raw fill precedes its
-- snapshots), so the final pick needs the time alone
rows5 AS (
  SELECT first_us, last_us, open, high, low, close, observations
  FROM price_1d
  WHERE protocol = $protocol::VARCHAR AND market = $market::VARCHAR AND src = 1
    AND bucket >= make_timestamp($snap_d_lo::BIGINT * 1000) AND bucket < make_timestamp($snap_d_hi::BIGINT * 1000)
  UNION ALL
  SELECT first_us, last_us, open, high, low, close, observations
  FROM price_1h
  WHERE protocol = $protocol::VARCHAR AND market = $market::VARCHAR AND src = 1
    AND bucket >= make_timestamp($snap_h1_lo::BIGINT * 1000) AND bucket < make_timestamp($snap_h1_hi::BIGINT * 1000)
  UNION ALL
  SELECT first_us, last_us, open, high, low, close, observations
  FROM price_1h
  WHERE protocol = $protocol::VARCHAR AND market = $market::VARCHAR AND src = 1
    AND bucket >= make_timestamp($snap_h2_lo::BIGINT * 1000) AND bucket < make_timestamp($snap_h2_hi::BIGINT * 1000)
  UNION ALL
  SELECT first_us, last_us, open, high, low, close, observations
  FROM price_5m
  WHERE protocol = $protocol::VARCHAR AND market = $market::VARCHAR AND src = 1
    AND bucket >= make_timestamp($snap_m1_lo::BIGINT * 1000) AND bucket < make_timestamp($snap_m1_hi::BIGINT * 1000)
  UNION ALL
  SELECT first_us, last_us, open, high, low, close, observations
  FROM price_5m
  WHERE protocol = $protocol::VARCHAR AND market = $market::VARCHAR AND src = 1
    AND bucket >= make_timestamp($snap_m2_lo::BIGINT * 1000) AND bucket < make_timestamp($snap_m2_hi::BIGINT * 1000)
  UNION ALL
  SELECT first_us, last_us, open, high, low, close, observations
  FROM price_1d
  WHERE protocol = $protocol::VARCHAR AND market = $market::VARCHAR AND src = 0
    AND bucket >= make_timestamp($fill_d_lo::BIGINT * 1000) AND bucket < make_timestamp($fill_d_hi::BIGINT * 1000)
  UNION ALL
  SELECT first_us, last_us, open, high, low, close, observations
  FROM price_1h
  WHERE protocol = $protocol::VARCHAR AND market = $market::VARCHAR AND src = 0
    AND bucket >= make_timestamp($fill_h1_lo::BIGINT * 1000) AND bucket < make_timestamp($fill_h1_hi::BIGINT * 1000)
  UNION ALL
  SELECT first_us, last_us, open, high, low, close, observations
  FROM price_1h
  WHERE protocol = $protocol::VARCHAR AND market = $market::VARCHAR AND src = 0
    AND bucket >= make_timestamp($fill_h2_lo::BIGINT * 1000) AND bucket < make_timestamp($fill_h2_hi::BIGINT * 1000)
  UNION ALL
  SELECT first_us, last_us, open, high, low, close, observations
  FROM price_5m
  WHERE protocol = $protocol::VARCHAR AND market = $market::VARCHAR AND src = 0
    AND bucket >= make_timestamp($fill_m1_lo::BIGINT * 1000) AND bucket < make_timestamp($fill_m1_hi::BIGINT * 1000)
  UNION ALL
  SELECT first_us, last_us, open, high, low, close, observations
  FROM price_5m
  WHERE protocol = $protocol::VARCHAR AND market = $market::VARCHAR AND src = 0
    AND bucket >= make_timestamp($fill_m2_lo::BIGINT * 1000) AND bucket < make_timestamp($fill_m2_hi::BIGINT * 1000)
  UNION ALL
  SELECT min(t_us), max(t_us), arg_min(price, (t_us, src, k, seq)), max(price), min(price),
         arg_max(price, (t_us, src, k, seq)), count(*)::INTEGER
  FROM raw
  GROUP BY t_us // 300000000
)
SELECT epoch_ms(first_us // 1000 // $bucket_ms::BIGINT * $bucket_ms::BIGINT) AS time,
       arg_min(open, first_us) AS open,
       max(high) AS high,
       min(low) AS low,
       arg_max(close, last_us) AS close,
       sum(observations)::INTEGER AS observations
FROM rows5
GROUP BY 1
ORDER BY 1;
