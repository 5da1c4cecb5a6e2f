-- The alpha accounts the batch just derived changed (batch_accounts, sql/derive/accounts-stage.sql), in
-- the API's Account shape with its held parts (alpha_account_held): what the append path hands to
-- `GET /v1/alpha/accounts/search`'s snapshot (server/read/accounts/accounts-index.ts) instead of it reading them
-- back from `accounts` (a scan of every account's decimals, ~60 ms after each live append on the bench
-- journal).
-- Parameters: $limit INTEGER, at most this many rows (the caller asks one more than it takes, so
-- a full answer tells it there were too many: a backfill batch, when the snapshot loads anew).
SELECT * FROM alpha_account_held('batch_accounts')
LIMIT $limit::INTEGER;
