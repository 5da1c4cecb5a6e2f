-- Enforces the position snapshots' dedup key against the journal (docs/journal-keys.md): drops
-- staged snapshots older than the kept latest snapshot of their lifecycle (a resuming source
-- re-emits them), and those at the very instant of it, which the journal already holds (a poll
-- is keyed by position and poll time), unless the staged one is an event snapshot written with a
-- new fill of this batch (keyed by that fill: a later commit at the same instant then wins).
-- Within a batch, collapse-same-instant-position-snapshots keeps the last. No parameters.
DELETE FROM batch_psnap b
USING position_latest p
WHERE p.position_id = b.position_id
  AND (b.time < p.time
       OR (b.time = p.time
           AND NOT (b.source = 'event' AND EXISTS (
             SELECT 1 FROM batch_fills f
             WHERE f.protocol = b.protocol AND f.position_key = b.position_key AND f.time = b.time))));
