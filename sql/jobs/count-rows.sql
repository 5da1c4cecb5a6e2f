-- Rows in the given journal files, from their Parquet footers (list spliced in by
-- jobs/compaction.ts). No parameters.
SELECT coalesce(sum(num_rows), 0)::BIGINT AS n FROM parquet_file_metadata(__FILES__);
