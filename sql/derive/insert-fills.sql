-- Copies the staged batch's fills (seq and position_id assigned) into the derived `fills` table,
-- in seq order so zone maps on seq/time/slot stay tight. No parameters.
INSERT INTO fills
SELECT seq, protocol, time, slot, tx, event_index, position_key, position_id, address, market,
       market_variant, side, type, size_delta_usd, position_size_usd, collateral_delta_usd,
       position_collateral_usd, price, entry_price, pnl_delta_usd, fee_usd, borrowing_fee_usd,
       funding_fee_usd, liquidation_fee_usd, funding_earned_usd, fee_total_usd, index_price,
       collateral_token, position_entry_price
FROM batch_fills
ORDER BY seq;
