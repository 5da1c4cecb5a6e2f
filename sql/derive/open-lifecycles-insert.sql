-- Copies the lifecycles the staged batch touches that are open after it (lifecycles-insert.sql
-- recomputed them) into open_lifecycles. No parameters.
INSERT INTO open_lifecycles
SELECT * FROM lifecycles
WHERE status = 'open' AND position_id IN (SELECT DISTINCT position_id FROM batch_fills)
ORDER BY position_id;
