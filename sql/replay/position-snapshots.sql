-- Position snapshots of a replayed journal with $from_ms <= time < $to_ms, in time order, then
-- journal order; without position_id (the append path assigns it from the position key). Glob
-- spliced in by server/sources/replay/reader.ts.
-- Parameters: $from_ms BIGINT, $to_ms BIGINT, $from_day VARCHAR, $to_day VARCHAR.
SELECT epoch_ms(time) AS time, protocol, position_key, size_usd, collateral_usd, unsettled_borrowing_usd,
       unsettled_funding_usd, claimable_funding_usd, mark_price, liquidation_price, source
FROM read_parquet(__GLOB__, hive_partitioning = true, filename = true, file_row_number = true)
WHERE day BETWEEN $from_day::DATE AND $to_day::DATE
  AND time >= make_timestamp($from_ms * 1000) AND time < make_timestamp($to_ms * 1000)
ORDER BY time, try_cast(regexp_extract(filename, '(\d{12})-\d{12}\.parquet$', 1) AS BIGINT), filename, file_row_number;
