-- Adds the markets (protocol, market, market variant) of the staged batch's fills that the
-- `markets` table does not have yet. No parameters.
INSERT INTO markets
SELECT DISTINCT b.protocol, b.market, b.market_variant
FROM batch_fills b
WHERE NOT EXISTS (
  SELECT 1 FROM markets m
  WHERE m.protocol = b.protocol AND m.market = b.market AND m.market_variant IS NOT DISTINCT FROM b.market_variant);
