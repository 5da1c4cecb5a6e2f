-- Catch-up progress of the snapshot kinds: the last commit folded in per kind while a chunked
-- catch-up is under way (server/derive/catch-up.ts; absent = `derived_commit`). No parameters.
SELECT key, value FROM meta WHERE key IN ('catchup_market_snapshots_commit', 'catchup_position_snapshots_commit');
