-- GET /v1/{protocol}/fills with `address`: the times of the address's first and last fills (its
-- account's), so the search reads that range of `fills` only (zone maps on `time`).
-- Parameters: $protocol VARCHAR, $address VARCHAR. No row when the address has no account.
SELECT epoch_ms(first_trade_at) AS first_ms, epoch_ms(last_trade_at) AS last_ms
FROM accounts
WHERE protocol = $protocol::VARCHAR AND address = $address::VARCHAR;
