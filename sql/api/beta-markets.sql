-- Endpoint 20, GET /v1/beta/markets: one MarketRef per beta market (market_variant null),
-- ordered by market. No parameters.
-- Listed when the market has a snapshot (market_latest) OR any lifecycle (see alpha-markets.sql).
SELECT DISTINCT market, NULL::VARCHAR AS market_variant
FROM (
  SELECT market FROM market_latest WHERE protocol = 'beta'
  UNION ALL
  SELECT market FROM lifecycles WHERE protocol = 'beta'
)
ORDER BY market;
