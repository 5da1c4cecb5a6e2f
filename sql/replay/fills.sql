-- Fills of a replayed journal with $from_ms <= time < $to_ms (epoch ms), as incoming fills (no
-- seq, no position_id: the append path assigns them), in time order, then their original seq.
-- The day bounds prune partitions. Glob spliced in by server/sources/replay/reader.ts.
-- Read by column name: a journal written before position_entry_price existed gives null there.
-- Parameters: $from_ms BIGINT, $to_ms BIGINT, $from_day VARCHAR, $to_day VARCHAR.
SELECT protocol, epoch_ms(time) AS time, slot, tx, event_index, position_key, address, market, market_variant,
       side, type, size_delta_usd, position_size_usd, collateral_delta_usd, position_collateral_usd, price,
       entry_price, pnl_delta_usd, fee_usd, borrowing_fee_usd, funding_fee_usd, liquidation_fee_usd,
       funding_earned_usd, fee_total_usd, index_price, collateral_token, position_entry_price
FROM (
  SELECT * FROM read_parquet(__GLOB__, hive_partitioning = true, union_by_name = true)
  UNION ALL BY NAME -- the column added later, null where no file has it yet
  SELECT NULL::DOUBLE AS position_entry_price WHERE false
)
WHERE day BETWEEN $from_day::DATE AND $to_day::DATE
  AND time >= make_timestamp($from_ms * 1000) AND time < make_timestamp($to_ms * 1000)
ORDER BY time, seq;
