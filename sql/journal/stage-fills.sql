-- Stages the journal fills with seq in [$from_seq, $to_seq] into batch_fills (catch-up and
-- rebuild, one chunk at a time). __FILES__ is replaced by server/derive/catch-up.ts with the list
-- of the files that hold those seqs (a file list cannot be a bound parameter); row-group
-- statistics on seq skip the rest of a file that straddles the range.
-- Parameters: $from_seq BIGINT, $to_seq BIGINT.
INSERT INTO batch_fills
SELECT seq, protocol, time, slot, tx, event_index, position_key, position_id, address, market,
       market_variant, side, type, size_delta_usd, position_size_usd, collateral_delta_usd,
       position_collateral_usd, price, entry_price, pnl_delta_usd, fee_usd, borrowing_fee_usd,
       funding_fee_usd, liquidation_fee_usd, funding_earned_usd, fee_total_usd, index_price,
       collateral_token,
       0 AS ord_row
FROM read_parquet(__FILES__, hive_partitioning = true)
WHERE seq BETWEEN $from_seq AND $to_seq;
