-- Endpoint 13's working set (server/http/accounts-index.ts): every alpha Account (the
-- alpha_accounts() macro, sql/schema/read-macros.sql), loaded once per journal generation and searched
-- in memory. No parameters.
SELECT * FROM alpha_accounts();
