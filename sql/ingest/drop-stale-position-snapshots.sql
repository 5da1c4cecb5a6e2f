-- Drops staged position snapshots older than the kept latest snapshot of their lifecycle (a
-- resuming source re-emits them). Equal times are kept (a later commit at the same instant wins);
-- within a batch, collapse-same-instant-position-snapshots keeps the last. No parameters.
DELETE FROM batch_psnap b
USING position_latest p
WHERE p.position_id = b.position_id AND b.time < p.time;
