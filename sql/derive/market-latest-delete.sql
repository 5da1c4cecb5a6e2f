-- Drops market_latest rows that the staged batch supersedes (same market key, time <= the
-- batch's newest snapshot of it; a tie goes to the later commit). No parameters.
DELETE FROM market_latest m
USING (SELECT protocol, market, market_variant, max(time) AS t FROM batch_msnap GROUP BY ALL) b
WHERE m.protocol = b.protocol AND m.market = b.market
  AND m.market_variant IS NOT DISTINCT FROM b.market_variant AND m.time <= b.t;
