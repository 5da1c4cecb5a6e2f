-- Endpoint 18, GET /v1/alpha/positions/{address}/{id}: one alpha lifecycle record (the
-- alpha_lifecycle_records() macro's fields, sql/schema/read-macros.sql). No row = 404 (unknown id, or
-- a lifecycle of another address). The live fields of an open lifecycle are read next by the
-- route (sql/api/alpha-position-live.sql), so a closed one never plans the open-position view.
-- Parameters: $address VARCHAR (exact base58 address), $id BIGINT (position_id).
SELECT r.*
FROM alpha_lifecycle_records() r
WHERE r.position_id = $id::BIGINT AND r.address = $address::VARCHAR;
