-- Stages every market snapshot of the files in __FILES__ (one catch-up chunk: whole commits, see
-- server/derive/chunks.ts) into batch_msnap, with journal order (first commit of the file, row
-- in the file). __FILES__ is replaced by server/derive/catch-up.ts with a list of file paths.
-- Files written before index_price_time / index_price_source existed are read by column name
-- (union_by_name) and give null there. No parameters.
INSERT INTO batch_msnap
SELECT time, protocol, market, market_variant, index_price, oi_long_usd, oi_short_usd,
       funding_rate_long, funding_rate_short, borrowing_rate_long, borrowing_rate_short,
       funding_rate_raw, cum_borrowing_long, cum_borrowing_short, cum_funding_paid_long,
       cum_funding_paid_short, cum_funding_earned_long, cum_funding_earned_short,
       index_price_time, index_price_source,
       regexp_extract(filename, '(\d{12})-\d{12}\.parquet$', 1)::BIGINT AS ord_commit,
       file_row_number::INTEGER AS ord_row
FROM (
  SELECT * FROM read_parquet(__FILES__, hive_partitioning = true, filename = true, file_row_number = true, union_by_name = true)
  UNION ALL BY NAME -- the columns added later, null where no file has them yet
  SELECT NULL::TIMESTAMP AS index_price_time, NULL::VARCHAR AS index_price_source WHERE false
);
