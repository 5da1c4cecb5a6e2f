-- `GET /v1/stream/{protocol}/fills` (the fills stream): resolves a scope's market. Known = the protocol
-- has a fill or a market snapshot of that market (the rule of sql/api/alpha-scope-known.sql, for either
-- protocol).
-- Parameters:
--   $protocol VARCHAR           alpha | beta
--   $market VARCHAR or NULL     grouped market symbol; NULL = the whole protocol
-- Returns one row: known BOOLEAN (always true when $market is NULL) and market_variants VARCHAR[],
-- the distinct non-null variants the scope covers, sorted (beta has no variants: []).
WITH m AS (
  SELECT market, market_variant FROM markets WHERE protocol = $protocol::VARCHAR
  UNION ALL
  SELECT market, market_variant FROM market_latest WHERE protocol = $protocol::VARCHAR
)
SELECT ($market::VARCHAR IS NULL OR count(*) FILTER (WHERE market = $market::VARCHAR) > 0) AS known,
       coalesce(list_sort(list_distinct(list(market_variant) FILTER (
         WHERE ($market::VARCHAR IS NULL OR market = $market::VARCHAR) AND market_variant IS NOT NULL))),
         []::VARCHAR[]) AS market_variants
FROM m;
