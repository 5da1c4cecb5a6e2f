-- Loads the market snapshots of the given journal files (every file of a chunk of days) with
-- their journal order, as sql/journal/stage-market-snapshots.sql stages them (first commit of
-- the file, row in the file), and the file's last commit. File list spliced in by
-- jobs/rollup-refresh.ts; read by column name, as files of different ages differ in columns. No parameters.
CREATE OR REPLACE TEMP TABLE job_msnap AS
SELECT protocol, market, market_variant, time, oi_long_usd, oi_short_usd, funding_rate_long, funding_rate_short,
       regexp_extract(filename, '(\d{12})-\d{12}\.parquet$', 1)::BIGINT AS ord_commit,
       file_row_number::INTEGER AS ord_row,
       regexp_extract(filename, '\d{12}-(\d{12})\.parquet$', 1)::BIGINT AS last_commit
FROM read_parquet(__FILES__, hive_partitioning = true, filename = true, file_row_number = true, union_by_name = true);
