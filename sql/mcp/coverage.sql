-- MCP describe_service: what the derived state covers, one row per tracked protocol (alpha, beta),
-- present even with no data (zero counts, null times). No parameters.
--   fills, first_fill_at, last_fill_at, first_seq, last_seq  over the journal's fills
--   market_snapshots_from      start of the first 5-minute bucket holding a market snapshot
--   last_market_snapshot_at    time of the newest market snapshot (any variant)
--   positions_with_snapshot    lifecycles with a position snapshot; last_position_snapshot_at the newest
WITH protocols(protocol, ord) AS (VALUES ('alpha', 1), ('beta', 2)),
f AS (
  SELECT protocol, count(*) AS fills, min(time) AS first_fill_at, max(time) AS last_fill_at,
         min(seq) AS first_seq, max(seq) AS last_seq
  FROM fills GROUP BY protocol
),
ms AS (SELECT protocol, min(bucket) AS market_snapshots_from FROM oi_snapshot_5m GROUP BY protocol),
ml AS (SELECT protocol, max(time) AS last_market_snapshot_at FROM market_latest GROUP BY protocol),
ps AS (
  SELECT protocol, count(*) AS positions_with_snapshot, max(time) AS last_position_snapshot_at
  FROM position_latest GROUP BY protocol
)
SELECT p.protocol,
       coalesce(f.fills, 0)::BIGINT AS fills,
       f.first_fill_at, f.last_fill_at, f.first_seq, f.last_seq,
       ms.market_snapshots_from, ml.last_market_snapshot_at,
       coalesce(ps.positions_with_snapshot, 0)::BIGINT AS positions_with_snapshot,
       ps.last_position_snapshot_at
FROM protocols p
LEFT JOIN f USING (protocol)
LEFT JOIN ms USING (protocol)
LEFT JOIN ml USING (protocol)
LEFT JOIN ps USING (protocol)
ORDER BY p.ord;
