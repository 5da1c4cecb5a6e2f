-- Rows in the given journal files (list spliced in by jobs/compaction.ts). No parameters.
SELECT count(*)::BIGINT AS n FROM read_parquet(__FILES__);
