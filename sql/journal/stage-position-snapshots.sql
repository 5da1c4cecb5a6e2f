-- Stages every position snapshot of the files in __FILES__ (one catch-up chunk: whole commits,
-- see server/derive/chunks.ts) into batch_psnap, with journal order. __FILES__ is replaced by
-- server/derive/catch-up.ts with a list of file paths. No parameters.
INSERT INTO batch_psnap
SELECT time, protocol, position_id, position_key, size_usd, collateral_usd, unsettled_borrowing_usd,
       unsettled_funding_usd, claimable_funding_usd, mark_price, liquidation_price, source,
       regexp_extract(filename, '(\d{12})-\d{12}\.parquet$', 1)::BIGINT AS ord_commit,
       file_row_number::INTEGER AS ord_row
FROM read_parquet(__FILES__, hive_partitioning = true, filename = true, file_row_number = true);
