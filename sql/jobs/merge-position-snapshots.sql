-- Compaction of an open (today's) partition: a run of its position-snapshot files (spliced in)
-- rewritten as one zstd Parquet file in journal order (commit of the file, then row in the file),
-- every row kept: poll retention (compact-position-snapshots.sql) needs the closed day. Paths
-- spliced in by jobs/compaction.ts. No parameters.
COPY (
  SELECT time, position_id, position_key, size_usd, collateral_usd, unsettled_borrowing_usd,
         unsettled_funding_usd, claimable_funding_usd, mark_price, liquidation_price, source
  FROM read_parquet(__FILES__, filename = true, file_row_number = true)
  ORDER BY regexp_extract(filename, '(\d{12})-\d{12}\.parquet$', 1)::BIGINT, file_row_number
) TO __TARGET__ (FORMAT parquet, COMPRESSION zstd);
