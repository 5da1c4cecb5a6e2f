-- $protocol VARCHAR: the protocol served ('alpha' or 'beta'; every endpoint of both runs this file).
-- Whether a market symbol or a market variant is known to alpha (has fills or a market snapshot),
-- so routes can reject a typo with a 400 instead of an empty answer (server/http/scope.ts).
-- Parameters: $market VARCHAR or NULL; $market_variant VARCHAR or NULL (NULL = not asked).
-- Returns one row: known BOOLEAN (true when every given one is known).
SELECT ($market::VARCHAR IS NULL OR EXISTS (
          SELECT 1 FROM markets WHERE protocol = $protocol::VARCHAR AND market = $market::VARCHAR
          UNION ALL SELECT 1 FROM market_latest WHERE protocol = $protocol::VARCHAR AND market = $market::VARCHAR))
   AND ($market_variant::VARCHAR IS NULL OR EXISTS (
          SELECT 1 FROM markets WHERE protocol = $protocol::VARCHAR AND market_variant = $market_variant::VARCHAR
          UNION ALL SELECT 1 FROM market_latest WHERE protocol = $protocol::VARCHAR AND market_variant = $market_variant::VARCHAR)) AS known;
