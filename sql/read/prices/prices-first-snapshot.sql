-- The time of a market's first market snapshot (epoch ms; NULL: none), read from the journal's
-- Parquet files of the UTC days that may hold it (glob spliced in as __GLOB__ by
-- server/read/prices/price-candles.ts, which finds the day from the derived oi_snapshot_1d).
-- Parameters: $market VARCHAR, $from_day, $to_day VARCHAR (UTC days).
SELECT epoch_ms(min(time)) AS first_ms
FROM read_parquet(__GLOB__, hive_partitioning = true, union_by_name = true) -- files of different ages differ in columns
WHERE day BETWEEN $from_day::DATE AND $to_day::DATE AND market = $market::VARCHAR;
