-- The market snapshots of the partial 5-minute edges of a price-history window (spliced into
-- sql/read/prices/prices-history.sql as its edge CTE, over the edge days' Parquet files spliced in for the files token).
-- Parameters: $market VARCHAR; BIGINT epoch ms: $from, $inner_from, $inner_to, $to (the window's
-- partial 5-minute edges [$from, $inner_from) and [$inner_to, $to)).
SELECT epoch_us(time) AS t_us, index_price AS price, coalesce(market_variant, '') AS k
FROM read_parquet(__FILES__, hive_partitioning = true, union_by_name = true) -- files of different ages differ in columns
WHERE market = $market::VARCHAR
  AND ((time >= make_timestamp($from::BIGINT * 1000) AND time < make_timestamp($inner_from::BIGINT * 1000))
    OR (time >= make_timestamp($inner_to::BIGINT * 1000) AND time < make_timestamp($to::BIGINT * 1000)))
