-- Drops the open_position_latest rows of every lifecycle the staged fills touch (re-added next
-- when the lifecycle is still open). No parameters.
DELETE FROM open_position_latest WHERE position_id IN (SELECT DISTINCT position_id FROM batch_fills);
