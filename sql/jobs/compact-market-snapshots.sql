-- Compaction: one closed day's market-snapshot files rewritten as one zstd Parquet
-- file, rows in journal order (commit of the file, then row in the file), so the
-- order a rebuild sees is unchanged. Files of a day may differ in columns (ones written before
-- index_price_time / index_price_source existed): read by name, the missing ones are null. Paths spliced in by jobs/compaction.ts. No parameters.
COPY (
  SELECT time, market, market_variant, index_price, oi_long_usd, oi_short_usd, funding_rate_long,
         funding_rate_short, borrowing_rate_long, borrowing_rate_short, funding_rate_raw,
         cum_borrowing_long, cum_borrowing_short, cum_funding_paid_long, cum_funding_paid_short,
         cum_funding_earned_long, cum_funding_earned_short, index_price_time, index_price_source
  FROM (
    SELECT * FROM read_parquet(__FILES__, filename = true, file_row_number = true, union_by_name = true)
    UNION ALL BY NAME -- the columns added later, null where no file has them yet
    SELECT NULL::TIMESTAMP AS index_price_time, NULL::VARCHAR AS index_price_source WHERE false
  )
  ORDER BY regexp_extract(filename, '(\d{12})-\d{12}\.parquet$', 1)::BIGINT, file_row_number
) TO __TARGET__ (FORMAT parquet, COMPRESSION zstd);
