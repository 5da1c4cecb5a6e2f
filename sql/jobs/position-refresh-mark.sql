-- The derived state's position (journal commit and seq) as one comparable string, read on a
-- reader connection: the position refresh computes nothing while it is the one at which its last
-- run found nothing to re-mark (jobs/position-refresh.ts). No parameters.
SELECT coalesce(max(value) FILTER (WHERE key = 'derived_commit'), '0') || '/' ||
       coalesce(max(value) FILTER (WHERE key = 'derived_seq'), '0') AS mark
FROM meta
WHERE key IN ('derived_commit', 'derived_seq');
