-- Copies the staged batch's fills into `fills_by_address` (the stream frame's columns) in
-- (protocol, address, time, seq) order: a batch's rows of one wallet are contiguous, so zone maps
-- on `address` skip the rest. No parameters.
INSERT INTO fills_by_address
SELECT seq, protocol, position_id, address, market, market_variant, side, time, type, size_delta_usd,
       position_size_usd, collateral_delta_usd, price, entry_price, pnl_delta_usd, fee_usd,
       borrowing_fee_usd, funding_fee_usd, liquidation_fee_usd, fee_total_usd, tx
FROM batch_fills
ORDER BY protocol, address, time, seq;
