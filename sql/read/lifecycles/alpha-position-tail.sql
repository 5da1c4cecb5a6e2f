-- `GET /v1/{protocol}/positions/{address}/{id}/lifecycle` for an open lifecycle whose earlier fills the lifecycle store holds: its fills with
-- $after < seq <= $last_seq (the store's mark and the lifecycle's last fill), as timeline_docs'
-- docs in seq order (server/read/lifecycles/lifecycle-timeline.ts sorts and pages them with the store's).
-- Parameters: $protocol VARCHAR (the lifecycle's), $id BIGINT (position_id, unique across
-- protocols), $after BIGINT, $last_seq BIGINT.
-- Plan: the bounds on seq are table filters, so only the fills since the store's mark are read.
SELECT doc
FROM timeline_docs($protocol::VARCHAR, $after::BIGINT, $last_seq::BIGINT)
WHERE position_id = $id::BIGINT
ORDER BY seq;
