-- GET /v1/{protocol}/prices/history: OHLC of one market's index price per epoch-aligned bucket,
-- oldest first; buckets without an observation omitted. Observations: the market snapshots of the
-- journal (every variant of the market; read from its Parquet files, glob spliced in as __GLOB__
-- by server/http/price-candles.ts) and, before the market's first snapshot, the index price the
-- fills carry (derived `fills`). open / close = the price of the first / last observation of the
-- bucket (time, then fills before snapshots, then a fill's seq or a snapshot's variant: the journal
-- holds one snapshot per variant and instant, and keeps no row order inside a file), high / low = max / min.
-- Parameters: $protocol VARCHAR, $market VARCHAR, $from, $to BIGINT epoch ms (window [from, to)),
-- $from_day, $to_day VARCHAR (the window's UTC days, for partition pruning), $bucket_ms BIGINT,
-- $first_snapshot BIGINT epoch ms or NULL (the market's first snapshot; NULL = none: fills only).
WITH obs AS (
  SELECT epoch_us(time) AS t_us, index_price AS price, 1 AS src, coalesce(market_variant, '') AS k, 0::BIGINT AS seq
  FROM read_parquet(__GLOB__, hive_partitioning = true, union_by_name = true) -- files of different ages differ in columns
  WHERE day BETWEEN $from_day::DATE AND $to_day::DATE
    AND time >= make_timestamp($from::BIGINT * 1000) AND time < make_timestamp($to::BIGINT * 1000)
    AND market = $market::VARCHAR
  UNION ALL
  SELECT epoch_us(time), index_price, 0, '', seq
  FROM fills
  WHERE protocol = $protocol::VARCHAR AND market = $market::VARCHAR
    AND time >= epoch_ms($from::BIGINT)
    AND time < epoch_ms(least($to::BIGINT, coalesce($first_snapshot::BIGINT, $to::BIGINT)))
)
SELECT epoch_ms(t_us // 1000 // $bucket_ms::BIGINT * $bucket_ms::BIGINT) AS time,
       arg_min(price, (t_us, src, k, seq)) AS open,
       max(price) AS high,
       min(price) AS low,
       arg_max(price, (t_us, src, k, seq)) AS close,
       count(*)::INTEGER AS observations
FROM obs
GROUP BY 1
ORDER BY 1;
