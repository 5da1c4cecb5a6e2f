-- Drops position_latest rows superseded by the staged batch (time <= the batch's newest
-- snapshot of that lifecycle). No parameters.
DELETE FROM position_latest p
USING (SELECT position_id, max(time) AS t FROM batch_psnap GROUP BY ALL) b
WHERE p.position_id = b.position_id AND p.time <= b.t;
