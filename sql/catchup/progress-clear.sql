-- Drops the catch-up progress keys once `derived_commit` covers every kind again. No parameters.
DELETE FROM meta
WHERE key IN ('catchup_market_snapshots_commit', 'catchup_position_snapshots_commit', 'catchup_accounts_pending');
