-- GET /v1/{protocol}/fills with `address`: the journal seq range that holds every fill of the
-- address (its lifecycles' first and last fills), so the search reads that range of `fills` only.
-- Parameters: $protocol VARCHAR, $address VARCHAR. NULLs when the address has no lifecycle.
SELECT min(first_seq) AS seq_lo, max(last_seq) AS seq_hi
FROM lifecycles
WHERE protocol = $protocol::VARCHAR AND address = $address::VARCHAR;
