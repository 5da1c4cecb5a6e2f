-- Keeps one staged position snapshot per lifecycle and instant: the last in journal order
-- (two fills of one transaction each leave a snapshot at the same time; the second supersedes the
-- first at once). Why: DuckDB's partitioned COPY does not keep row order inside a file (duckdb
-- issue #14349), so a rebuild could not tell two same-instant snapshots of one commit apart; with
-- at most one per (position_id, time) per commit, (time, commit) orders them everywhere.
-- No parameters.
DELETE FROM batch_psnap b
WHERE EXISTS (
  SELECT 1 FROM batch_psnap l
  WHERE l.position_id = b.position_id AND l.time = b.time AND l.ord_row > b.ord_row
);
