-- Drops the lifecycles the staged batch touches (they are recomputed next). No parameters.
DELETE FROM lifecycles WHERE position_id IN (SELECT DISTINCT position_id FROM batch_fills);
