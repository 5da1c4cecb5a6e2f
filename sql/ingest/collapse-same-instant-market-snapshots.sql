-- Keeps one staged market snapshot per market key (protocol, market, market variant) and
-- instant: the last in journal order, as the live market_latest pick would be. Why: DuckDB's
-- partitioned COPY does not keep row order inside a file (duckdb issue #14349), so a rebuild could
-- not tell two same-instant snapshots of one commit apart; with at most one per key and instant
-- (drop-stale-market-snapshots.sql rules out later commits), (time, commit) orders them
-- everywhere. Run only when server/ingest/snapshot-ties.ts finds a possible tie.
-- No parameters.
DELETE FROM batch_msnap b
WHERE EXISTS (
  SELECT 1 FROM batch_msnap l
  WHERE l.protocol = b.protocol AND l.market = b.market AND l.market_variant IS NOT DISTINCT FROM b.market_variant
    AND l.time = b.time AND l.ord_row > b.ord_row
);
