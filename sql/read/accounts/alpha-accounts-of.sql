-- $protocol VARCHAR: the protocol served ('alpha' or 'beta'; every endpoint of both runs this file).
-- The alpha Accounts of a few addresses (the alpha_account_held() shape), for patching
-- `GET /v1/alpha/accounts/search`'s in-memory snapshot after an append (server/read/accounts/accounts-index.ts).
-- An address without an account yields no row. Parameters: $addresses VARCHAR (comma-separated base58
-- addresses; base58 has no comma).
SELECT * FROM account_held_of('accounts', $protocol::VARCHAR)
WHERE address IN (SELECT unnest(string_split($addresses, ',')));
