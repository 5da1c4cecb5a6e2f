-- Drops the open_position_latest rows of the positions the staged snapshots are of (re-added next
-- from position_latest, which position-latest-insert.sql just updated). No parameters.
DELETE FROM open_position_latest WHERE position_id IN (SELECT DISTINCT position_id FROM batch_psnap);
