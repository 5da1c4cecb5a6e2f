-- The derived state's position (journal commit and seq) as one comparable string, and what the
-- position refresh last stored as settled (`<position>|<refresh version>|<skipped>`, or NULL), read
-- on a reader connection: the refresh computes nothing while the position is the one at which a
-- run found nothing to re-mark (jobs/position-refresh.ts). No parameters.
SELECT coalesce(max(value) FILTER (WHERE key = 'derived_commit'), '0') || '/' ||
       coalesce(max(value) FILTER (WHERE key = 'derived_seq'), '0') AS mark,
       max(value) FILTER (WHERE key = 'position_refresh_settled') AS settled
FROM meta
WHERE key IN ('derived_commit', 'derived_seq', 'position_refresh_settled');
