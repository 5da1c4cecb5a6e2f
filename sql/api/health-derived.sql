-- GET /health: the journal position the derived state includes and the time of the fill at it
-- (how fresh the data is). Both come from one snapshot of the derived state; `fills` is stored
-- in seq order, so zone maps make the lookup one row group. last_fill_time is null on an empty
-- journal. Also the memory DuckDB's buffer manager holds now (tables' blocks, hash tables, sort
-- runs: what its memory_limit bounds), for the operator's view of the process's RSS. No parameters.
WITH mark AS (SELECT value::BIGINT AS seq FROM meta WHERE key = 'derived_seq')
SELECT (SELECT seq FROM mark) AS derived_seq,
       (SELECT time FROM fills WHERE seq = (SELECT seq FROM mark)) AS last_fill_time,
       (SELECT sum(memory_usage_bytes) FROM duckdb_memory())::DOUBLE AS duckdb_bytes;
