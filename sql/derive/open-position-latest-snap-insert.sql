-- Copies the latest snapshot of the positions the staged snapshots are of into
-- open_position_latest, for those whose lifecycle is open. No parameters.
INSERT INTO open_position_latest
SELECT p.* FROM position_latest p
WHERE p.position_id IN (SELECT DISTINCT position_id FROM batch_psnap)
  AND p.position_id IN (SELECT position_id FROM open_lifecycles);
