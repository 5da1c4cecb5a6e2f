-- Endpoints 19 (and the lookup before it): whether an alpha lifecycle exists for this address, and
-- the journal seq range of its fills, so the timeline reads only that range of `fills` (stored in
-- seq order: zone maps on `seq` skip every other row group). No row = no such lifecycle.
-- Parameters: $address VARCHAR (exact base58 address), $id BIGINT (position_id).
SELECT first_seq, last_seq
FROM lifecycles
WHERE protocol = 'alpha' AND address = $address::VARCHAR AND position_id = $id::BIGINT;
