-- $protocol VARCHAR: the protocol served ('alpha' or 'beta'; every endpoint of both runs this file).
-- `GET /v1/alpha/accounts/search`'s working set (server/read/accounts/accounts-index.ts): every alpha Account
-- with the exact parts its totals need (the alpha_account_held() macro, sql/schema/read-macros.sql),
-- loaded once per journal generation and searched in memory. No parameters.
SELECT * FROM account_held_of('accounts', $protocol::VARCHAR);
