-- Drops the open-lifecycle copies of every lifecycle the staged batch touches (re-added next if
-- still open). No parameters.
DELETE FROM open_lifecycles WHERE position_id IN (SELECT DISTINCT position_id FROM batch_fills);
