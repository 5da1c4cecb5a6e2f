-- Endpoint 18, GET /v1/alpha/positions/{address}/{id}: one alpha lifecycle record (the
-- alpha_records macro's fields, sql/schema/read-macros.sql). No row = 404 (unknown id, or
-- a lifecycle of another address). The live fields of an open lifecycle are read next by the
-- route (sql/api/alpha-position-live.sql), so a closed one never plans the open-position view.
-- Parameters: $address VARCHAR (exact base58 address), $id BIGINT (position_id), $mark BIGINT (the
-- mark of the history read index, server/http/history-index.ts; 0 = not built).
-- Plan (issue 7): the address's lifecycles through the alpha_records macro (its closed ones from
-- the read index and the tail after the mark, its open ones from `open_lifecycles`), not a scan of
-- every lifecycle for one position id.
SELECT r.*
FROM alpha_records($address::VARCHAR, $mark::BIGINT) r
WHERE r.position_id = $id::BIGINT;
