-- Drops staged market snapshots that are not newer than the kept latest snapshot of their
-- market: market snapshots have no natural key, and a source that resumes from an earlier
-- point re-emits its last minutes; one snapshot per market per instant, in time order, is the
-- rule. No parameters.
DELETE FROM batch_msnap b
USING market_latest m
WHERE m.protocol = b.protocol AND m.market = b.market AND m.market_variant IS NOT DISTINCT FROM b.market_variant
  AND b.time <= m.time;
