-- $protocol VARCHAR: the protocol served ('alpha' or 'beta'; every endpoint of both runs this file).
-- `GET /v1/alpha/accounts/{address}/history`'s 404 check (server/http/routes/positions.ts, when
-- `GET /v1/alpha/accounts/search`'s in-memory snapshot does not already have the account): whether an
-- alpha account row exists for the address.
-- Parameters: $address VARCHAR, exact (case-sensitive) base58 address.
SELECT EXISTS (SELECT 1 FROM accounts WHERE protocol = $protocol::VARCHAR AND address = $address::VARCHAR) AS account_exists;
