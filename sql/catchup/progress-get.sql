-- Progress of a chunked catch-up under way (server/derive/catch-up.ts): per snapshot kind the last
-- commit folded in (absent = `derived_commit`), and whether a rebuild deferred its account and rollup steps
-- to after its last fill chunk ('1'). No parameters.
SELECT key, value FROM meta
WHERE key IN ('catchup_market_snapshots_commit', 'catchup_position_snapshots_commit', 'catchup_accounts_pending');
