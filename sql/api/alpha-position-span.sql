-- `GET /v1/alpha/positions/{address}/{id}/lifecycle` (the lookup before the timeline): the protocol,
-- address and journal seq range of lifecycle $id, so the timeline reads only that range of `fills`
-- (stored in seq order: zone maps on `seq` skip every other row group). No row = no such lifecycle; the
-- route answers 404 too unless it is an alpha lifecycle of the path's address.
-- Parameters: $id BIGINT (position_id, unique across protocols).
-- Plan: filtered on the integer position_id alone; the route compares the strings.
SELECT protocol, address, first_seq, last_seq
FROM lifecycles
WHERE position_id = $id::BIGINT;
