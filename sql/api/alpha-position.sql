-- `GET /v1/alpha/positions/{address}/{id}`: one lifecycle record (the
-- alpha_record_shape macro's fields, sql/schema/read-macros.sql), whatever its protocol and
-- address: the route answers 404 unless it is an alpha lifecycle of the path's address (as it
-- does for no row: an unknown id). The live fields of an open lifecycle are read next by the route
-- (server/read/open-positions/open-positions-index.ts, else sql/api/alpha-position-live.sql).
-- Parameters: $id BIGINT (position_id, unique across protocols).
-- Plan: `lifecycles` filtered on the integer position_id alone (a scan of 3.9M ids on the
-- bench journal: zone maps prune little, as every batch rewrites long-open lifecycles with old
-- ids). Reading the address's lifecycles through the read index and `open_lifecycles` instead took
-- as long (median ~12 ms either way in-process, alternating); this is one scan and one plan.
SELECT * EXCLUDE (last_seq)
FROM alpha_record_shape('lifecycles')
WHERE position_id = $id::BIGINT;
