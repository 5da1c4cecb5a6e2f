-- Stages one row per (protocol, address) of every lifecycle into batch_fills (the other columns
-- null), so that sql/derive/accounts-delete.sql and accounts-insert.sql, which read only those two
-- columns of the batch, recompute every account: a rebuild does this once after its last fill
-- chunk instead of once per chunk (server/derive/deferred-steps.ts). No parameters.
INSERT INTO batch_fills (protocol, address)
SELECT DISTINCT protocol, address FROM lifecycles;
