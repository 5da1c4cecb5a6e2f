-- Endpoint 13's working set (server/http/accounts-index.ts): every alpha Account with the exact
-- parts its totals need (the alpha_account_held() macro, sql/schema/read-macros.sql), loaded once
-- per journal generation and searched in memory. No parameters.
SELECT * FROM alpha_account_held('accounts');
