-- Stages the fills with seq in [$from_seq, $to_seq], just folded into `fills` by
-- sql/journal/stage-fills.sql, into batch_fills for the other fill steps of a catch-up chunk.
-- Zone maps on seq (fills are stored in seq order) limit the read to the chunk.
-- Parameters: $from_seq BIGINT, $to_seq BIGINT.
INSERT INTO batch_fills
SELECT seq, protocol, time, slot, tx, event_index, position_key, position_id, address, market,
       market_variant, side, type, size_delta_usd, position_size_usd, collateral_delta_usd,
       position_collateral_usd, price, entry_price, pnl_delta_usd, fee_usd, borrowing_fee_usd,
       funding_fee_usd, liquidation_fee_usd, funding_earned_usd, fee_total_usd, index_price,
       collateral_token, position_entry_price,
       0 AS ord_row
FROM fills
WHERE seq BETWEEN $from_seq AND $to_seq;
