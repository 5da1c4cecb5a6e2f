-- $protocol VARCHAR: the protocol served ('alpha' or 'beta'; every endpoint of both runs this file).
-- `GET /v1/alpha/accounts/{address}`: one alpha Account (the alpha_accounts() macro,
-- sql/schema/read-macros.sql). Parameters: $address VARCHAR, exact (case-sensitive) base58 address.
-- No row = 404.
SELECT * FROM accounts_of($protocol::VARCHAR) WHERE address = $address::VARCHAR;
