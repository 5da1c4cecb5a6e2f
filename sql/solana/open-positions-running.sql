-- The running state of every open lifecycle, for the solana indexer's position chain: collateral
-- and size after its last fill (collateral_delta_usd continues from the previous fill), its entry
-- price and the total size of its increases (the next increase extends that weighted average).
-- No parameters.
SELECT l.protocol, l.position_key,
  CAST(CAST(l.collateral_usd AS DECIMAL(38,6)) * 1000000 AS BIGINT) AS collateral_micros,
  CAST(CAST(l.size_usd AS DECIMAL(38,6)) * 1000000 AS BIGINT) AS size_micros,
  l.entry_price,
  CAST(CAST(sum(CASE WHEN f.size_delta_usd > 0 THEN f.size_delta_usd ELSE 0 END) AS DECIMAL(38,6)) * 1000000 AS BIGINT) AS increased_micros
FROM open_lifecycles l
JOIN fills f ON f.position_id = l.position_id
GROUP BY l.protocol, l.position_key, l.collateral_usd, l.size_usd, l.entry_price;
