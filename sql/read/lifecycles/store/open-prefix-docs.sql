-- The lifecycle store's prefixes of open lifecycles (server/read/lifecycles/lifecycle-store.ts): the fills at or
-- before $mark of every lifecycle of $protocol open now that opened at or before $mark, as
-- timeline_docs' docs, in (position_id, seq) order. A few thousand lifecycles; `GET /v1/{protocol}/positions/{address}/{id}/lifecycle` adds
-- the fills after $mark from sql/read/lifecycles/alpha-position-tail.sql.
-- Parameters: $protocol VARCHAR, $mark BIGINT (the store's mark).
WITH open AS (
  SELECT position_id, first_seq
  FROM open_lifecycles
  WHERE protocol = $protocol::VARCHAR AND status = 'open' AND first_seq <= $mark::BIGINT
)
SELECT d.position_id, d.doc
FROM timeline_docs($protocol::VARCHAR, (SELECT coalesce(min(first_seq), $mark::BIGINT + 1) - 1 FROM open), $mark::BIGINT) d
SEMI JOIN open USING (position_id)
ORDER BY d.position_id, d.seq;
