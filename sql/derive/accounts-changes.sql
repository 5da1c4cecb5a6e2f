-- What the staged batch changes in the lifecycles, for accounts-stage.sql: every lifecycle it
-- touches as it is after the batch (sign 1) and, for those that existed before it, as it was
-- (sign -1). A temp table of the writer connection, replaced on every batch. No parameters.
--
-- Runs after lifecycles-insert.sql and before open-lifecycles-delete.sql, so that:
-- - the lifecycles whose last fill is in the batch are exactly the ones it touched (its seqs are
--   the newest), and `last_seq >= min(batch seq)` reaches the scan as a zone-map filter: only the
--   row groups just written are read, not every lifecycle (recomputing the touched
--   accounts from all their lifecycles read ~20 columns of every row, ~0.75 s an append);
-- - a touched lifecycle that existed before the batch was open then (a fill joins the open
--   lifecycle of its position or starts a new one; lifecycles-insert.sql relies on the same), so
--   its old row is in open_lifecycles, which still holds the state before the batch.
CREATE OR REPLACE TEMP TABLE account_changes AS
SELECT 1 AS sign, * FROM lifecycles
WHERE last_seq >= (SELECT min(seq) FROM batch_fills)
UNION ALL
SELECT -1 AS sign, * EXCLUDE (last_index_price) FROM open_lifecycles
WHERE position_id IN (SELECT DISTINCT position_id FROM batch_fills);
