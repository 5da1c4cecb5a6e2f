-- Copies the staged batch's liquidation fills into `liquidations` (the columns
-- `GET /v1/alpha/liquidations/search` serves), in seq order. No parameters.
INSERT INTO liquidations
SELECT seq, protocol, time, tx, position_id, address, market, market_variant, side, size_delta_usd,
       collateral_delta_usd, price, entry_price, pnl_delta_usd, liquidation_fee_usd
FROM batch_fills
WHERE type = 'liquidation'
ORDER BY seq;
