-- $protocol VARCHAR: the protocol served ('alpha' or 'beta'; every endpoint of both runs this file).
-- `GET /v1/alpha/funding-rates`: the latest market snapshot's net hourly rates per
-- side per alpha variant (market_latest), ordered by market, variant.
-- Parameters: $market_variant VARCHAR or NULL (NULL = every variant).
-- Rates are not rounded.
SELECT market_variant,
       time,
       funding_rate_long,
       funding_rate_short
FROM market_latest
WHERE protocol = $protocol::VARCHAR
  AND ($market_variant::VARCHAR IS NULL OR market_variant = $market_variant::VARCHAR)
ORDER BY market, market_variant NULLS FIRST;
