-- $protocol VARCHAR: the protocol served ('alpha' or 'beta'; every endpoint of both runs this file).
-- `GET /v1/alpha/open-interest`: the latest market snapshot's open interest per alpha
-- variant (market_latest), ordered by market, variant.
-- Parameters: $market_variant VARCHAR or NULL (NULL = every variant).
-- USD amounts rounded to 6 decimals; total_usd = long + short (exact decimals, then rounded).
SELECT market_variant,
       market,
       time,
       round(oi_long_usd, 6)::DOUBLE AS long_usd,
       round(oi_short_usd, 6)::DOUBLE AS short_usd,
       round(oi_long_usd + oi_short_usd, 6)::DOUBLE AS total_usd
FROM market_latest
WHERE protocol = $protocol::VARCHAR
  AND ($market_variant::VARCHAR IS NULL OR market_variant = $market_variant::VARCHAR)
ORDER BY market, market_variant NULLS FIRST;
