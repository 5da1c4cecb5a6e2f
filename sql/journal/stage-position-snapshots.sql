-- Stages position snapshots of commits after $after_commit into batch_psnap, with journal
-- order. Glob spliced in by server/derive/catch-up.ts. Parameters: $after_commit BIGINT.
INSERT INTO batch_psnap
SELECT time, protocol, position_id, position_key, size_usd, collateral_usd, unsettled_borrowing_usd,
       unsettled_funding_usd, claimable_funding_usd, mark_price, liquidation_price, source,
       regexp_extract(filename, '(\d{12})-\d{12}\.parquet$', 1)::BIGINT AS ord_commit,
       file_row_number::INTEGER AS ord_row
FROM read_parquet(__GLOB__, hive_partitioning = true, filename = true, file_row_number = true)
WHERE regexp_extract(filename, '\d{12}-(\d{12})\.parquet$', 1)::BIGINT > $after_commit;
