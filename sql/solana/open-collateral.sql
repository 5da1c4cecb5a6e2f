-- Collateral after the last fill of every open lifecycle, for the solana indexer's collateral
-- chain (collateral_delta_usd continues from the previous fill of the same position). No parameters.
SELECT protocol, position_key, CAST(collateral_usd * 1000000 AS BIGINT) AS collateral_micros
FROM lifecycles WHERE status = 'open';
