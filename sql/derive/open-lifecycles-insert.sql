-- Copies the lifecycles the staged batch touches that are open after it (lifecycles-insert.sql
-- recomputed them) into open_lifecycles, with the index price on their last fill — which is in
-- the batch, since the batch touched the lifecycle and its seqs are the newest. No parameters.
INSERT INTO open_lifecycles
SELECT l.*, f.index_price AS last_index_price
FROM lifecycles l
JOIN batch_fills f ON f.seq = l.last_seq
WHERE l.status = 'open' AND l.position_id IN (SELECT DISTINCT position_id FROM batch_fills)
ORDER BY l.position_id;
