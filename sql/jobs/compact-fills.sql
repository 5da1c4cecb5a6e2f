-- Compaction: one closed day's fill files (spliced in) rewritten as one zstd Parquet
-- file with the same columns (those of a commit file: protocol and day live in the
-- path) in seq order. Files of a day may differ in columns (ones written before
-- position_entry_price existed): read by name, the missing one is null. Paths are spliced in by
-- jobs/compaction.ts. No parameters.
COPY (
  SELECT seq, time, slot, tx, event_index, position_key, position_id, address, market, market_variant,
         side, type, size_delta_usd, position_size_usd, collateral_delta_usd, position_collateral_usd,
         price, entry_price, pnl_delta_usd, fee_usd, borrowing_fee_usd, funding_fee_usd,
         liquidation_fee_usd, funding_earned_usd, fee_total_usd, index_price, collateral_token,
         position_entry_price
  FROM (
    SELECT * FROM read_parquet(__FILES__, union_by_name = true)
    UNION ALL BY NAME -- the column added later, null where no file has it yet
    SELECT NULL::DOUBLE AS position_entry_price WHERE false
  )
  ORDER BY seq
) TO __TARGET__ (FORMAT parquet, COMPRESSION zstd);
