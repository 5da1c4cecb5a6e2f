-- `GET /v1/alpha/positions/{address}/{id}` for a lifecycle the open-position set holds
-- (server/read/lifecycles/lifecycle-answers.ts): its record (alpha_record_shape's fields, as
-- sql/api/alpha-position.sql reads them) from open_lifecycles, a few thousand rows, instead of a scan
-- of every lifecycle's position_id. No row: it closed since the set was read (the route then reads
-- `lifecycles`).
-- Parameters: $id BIGINT (position_id).
SELECT * EXCLUDE (last_seq)
FROM alpha_record_shape('open_lifecycles')
WHERE position_id = $id::BIGINT;
