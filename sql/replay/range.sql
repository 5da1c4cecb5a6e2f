-- Time range (epoch ms) of one journal kind being replayed; the file glob is spliced in by
-- server/sources/replay/reader.ts (a file pattern cannot be a bound parameter). No parameters.
SELECT min(epoch_ms(time)) AS first_ms, max(epoch_ms(time)) AS last_ms
FROM read_parquet(__GLOB__, hive_partitioning = true, union_by_name = true); -- files of different ages differ in columns
