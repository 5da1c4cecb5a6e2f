-- `GET /v1/beta/markets`: one MarketRef per beta market (market_variant null),
-- ordered by market. No parameters.
-- Listed when the market has a snapshot (market_latest) OR any fill (`markets`), as in
-- alpha-markets.sql. Every lifecycle has a fill in its market, so this is the list the scan of
-- `lifecycles` it replaces gave (every lifecycle ever: 43 ms uncached on the bench journal).
SELECT DISTINCT market, NULL::VARCHAR AS market_variant
FROM (
  SELECT market FROM market_latest WHERE protocol = 'beta'
  UNION ALL
  SELECT market FROM markets WHERE protocol = 'beta'
)
ORDER BY market;
