-- One segment of the lifecycle store (server/read/lifecycles/lifecycle-segment.ts writes it to a file): every
-- lifecycle of $protocol closed or liquidated by a fill with $after < seq <= $mark whose position_id is
-- in [$from_id, $to_id) (one chunk of the segment: sql/read/lifecycles/store/lifecycle-chunks.sql), in position_id order, as
-- one head row and then all its fills in seq order, each as compact JSON text. Such a lifecycle never
-- changes again, so a segment is written once and kept.
-- Parameters: $protocol VARCHAR ('alpha' or 'beta': one store each), $after BIGINT (the store's previous mark, 0 for the first segment), $mark BIGINT (a
-- journal seq the derived state includes), $from_id BIGINT, $to_id BIGINT.
-- Columns: position_id; part (0 = head, 1 = fill); doc:
--   head: `GET /v1/{protocol}/positions/{address}/{id}`'s record, the record_docs macro's doc
--   fill: timeline_docs' doc (`GET /v1/{protocol}/positions/{address}/{id}/lifecycle`'s event)
-- Numbers are written by DuckDB's JSON writer and parsed back by JSON.parse; test/read/lifecycles/lifecycle-store.test.ts
-- compares the answers with the SQL's byte for byte.
WITH done AS (
  SELECT position_id, first_seq
  FROM lifecycles
  WHERE protocol = $protocol::VARCHAR AND status <> 'open' AND last_seq > $after::BIGINT AND last_seq <= $mark::BIGINT
    AND position_id >= $from_id::BIGINT AND position_id < $to_id::BIGINT
)
SELECT position_id, part, doc FROM (
  SELECT r.position_id, 0 AS part, 0::BIGINT AS seq, r.doc
  FROM record_docs($protocol::VARCHAR) r
  WHERE r.status <> 'open' AND r.last_seq > $after::BIGINT AND r.last_seq <= $mark::BIGINT
    AND r.position_id >= $from_id::BIGINT AND r.position_id < $to_id::BIGINT
  UNION ALL
  -- their fills (none is older than the earliest first_seq among them)
  SELECT d.position_id, 1, d.seq, d.doc
  FROM timeline_docs($protocol::VARCHAR, (SELECT coalesce(min(first_seq), $mark::BIGINT + 1) - 1 FROM done), $mark::BIGINT) d
  SEMI JOIN done USING (position_id)
  WHERE d.position_id >= $from_id::BIGINT AND d.position_id < $to_id::BIGINT
)
ORDER BY position_id, part, seq;
