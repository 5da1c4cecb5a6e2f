-- Folds the journal fills with seq in [$from_seq, $to_seq] straight into the derived `fills`
-- table, in seq order: the insert-fills derive step (sql/derive/insert-fills.sql), done from the
-- files for a catch-up chunk instead of from a staged copy (one copy of every column less;
-- sql/catchup/batch-fills.sql then stages the chunk for the other steps). __FILES__ is replaced by
-- server/derive/catch-up.ts with the list of the files that hold those seqs (a file list cannot be
-- a bound parameter); row-group statistics on seq skip the rest of a file that straddles the range.
-- Files written before position_entry_price existed are read by column name (union_by_name)
-- and give null there. Parameters: $from_seq BIGINT, $to_seq BIGINT.
INSERT INTO fills
SELECT seq, protocol, time, slot, tx, event_index, position_key, position_id, address, market,
       market_variant, side, type, size_delta_usd, position_size_usd, collateral_delta_usd,
       position_collateral_usd, price, entry_price, pnl_delta_usd, fee_usd, borrowing_fee_usd,
       funding_fee_usd, liquidation_fee_usd, funding_earned_usd, fee_total_usd, index_price,
       collateral_token, position_entry_price
FROM (
  SELECT * FROM read_parquet(__FILES__, hive_partitioning = true, union_by_name = true)
  UNION ALL BY NAME -- the column added later, null where no file has it yet
  SELECT NULL::DOUBLE AS position_entry_price WHERE false
)
WHERE seq BETWEEN $from_seq AND $to_seq
ORDER BY seq;
