-- Stages journal fills with seq > $after_seq from the Parquet files into batch_fills (catch-up
-- and rebuild). The glob is spliced in by server/derive/catch-up.ts (a file pattern cannot be a
-- bound parameter). Parameters: $after_seq BIGINT.
INSERT INTO batch_fills
SELECT seq, protocol, time, slot, tx, event_index, position_key, position_id, address, market,
       market_variant, side, type, size_delta_usd, position_size_usd, collateral_delta_usd,
       position_collateral_usd, price, entry_price, pnl_delta_usd, fee_usd, borrowing_fee_usd,
       funding_fee_usd, liquidation_fee_usd, funding_earned_usd, fee_total_usd, index_price,
       collateral_token,
       0 AS ord_row
FROM read_parquet(__GLOB__, hive_partitioning = true)
WHERE seq > $after_seq;
