-- Market snapshots of a replayed journal with $from_ms <= time < $to_ms, in time order, then
-- journal order (commit of the file, row in the file). Glob spliced in by
-- server/sources/replay/reader.ts; read by column name (a journal written before index_price_time /
-- index_price_source existed gives null there). Parameters: $from_ms BIGINT, $to_ms BIGINT, $from_day VARCHAR, $to_day VARCHAR.
SELECT epoch_ms(time) AS time, protocol, market, market_variant, index_price, oi_long_usd, oi_short_usd,
       funding_rate_long, funding_rate_short, borrowing_rate_long, borrowing_rate_short, funding_rate_raw,
       cum_borrowing_long, cum_borrowing_short, cum_funding_paid_long, cum_funding_paid_short,
       cum_funding_earned_long, cum_funding_earned_short,
       epoch_ms(index_price_time) AS index_price_time, index_price_source
FROM (
  SELECT * FROM read_parquet(__GLOB__, hive_partitioning = true, filename = true, file_row_number = true, union_by_name = true)
  UNION ALL BY NAME -- the columns added later, null where no file has them yet
  SELECT NULL::TIMESTAMP AS index_price_time, NULL::VARCHAR AS index_price_source WHERE false
)
WHERE day BETWEEN $from_day::DATE AND $to_day::DATE
  AND time >= make_timestamp($from_ms * 1000) AND time < make_timestamp($to_ms * 1000)
ORDER BY time, try_cast(regexp_extract(filename, '(\d{12})-\d{12}\.parquet$', 1) AS BIGINT), filename, file_row_number;
