-- Where the chunks of one lifecycle-store segment begin (server/read/lifecycles/lifecycle-segment.ts
-- reads sql/read/lifecycles/store/lifecycle-docs.sql one chunk at a time, so that no query sorts a
-- whole segment's fills at once): the position_id of every $per-th lifecycle of $protocol closed or
-- liquidated by a fill with $after < seq <= $mark, ascending (the first is the smallest such id).
-- Parameters: $protocol VARCHAR, $after BIGINT, $mark BIGINT, $per BIGINT (lifecycles per chunk).
-- Columns: from_id (DOUBLE).
SELECT position_id::DOUBLE AS from_id
FROM (
  SELECT position_id, row_number() OVER (ORDER BY position_id) - 1 AS i
  FROM lifecycles
  WHERE protocol = $protocol::VARCHAR AND status <> 'open' AND last_seq > $after::BIGINT AND last_seq <= $mark::BIGINT
)
WHERE i % $per::BIGINT = 0
ORDER BY from_id;
