-- `GET /v1/alpha/markets`: one MarketRef per alpha variant, ordered by market, variant.
-- No parameters.
-- A variant is listed when it has a market snapshot (market_latest) OR any fill (`markets`), so a
-- journal that so far holds only fills (history before snapshots) still lists its markets. The stats
-- endpoint (`GET /v1/alpha/markets/stats`) lists only variants with a snapshot: its fields come from
-- the snapshot.
SELECT DISTINCT market, market_variant
FROM (
  SELECT market, market_variant FROM market_latest WHERE protocol = 'alpha'
  UNION ALL
  SELECT market, market_variant FROM markets WHERE protocol = 'alpha'
)
ORDER BY market, market_variant NULLS FIRST;
