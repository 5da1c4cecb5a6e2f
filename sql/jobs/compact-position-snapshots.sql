-- Compaction with poll retention: one closed day's position-snapshot files rewritten
-- as one zstd Parquet file in journal order, keeping every `event` snapshot (one copy of exact
-- duplicates) and, of
-- the `poll` snapshots, only the last one per lifecycle (position_id) of the day (the latest by
-- time, then journal order). Paths spliced in by jobs/compaction.ts. No parameters.
COPY (
  SELECT time, position_id, position_key, size_usd, collateral_usd, unsettled_borrowing_usd,
         unsettled_funding_usd, claimable_funding_usd, mark_price, liquidation_price, source
  FROM (
    SELECT *, regexp_extract(filename, '(\d{12})-\d{12}\.parquet$', 1)::BIGINT AS ord_commit,
           file_row_number AS ord_row
    FROM read_parquet(__FILES__, filename = true, file_row_number = true)
  )
  QUALIFY CASE WHEN source = 'poll'
    THEN row_number() OVER (PARTITION BY position_id, source ORDER BY time DESC, ord_commit DESC, ord_row DESC) = 1
    -- an exact copy of an event snapshot (re-emitted by a source before the dedup key was enforced
    -- on append) is the same key: only the last copy stays, so journal order still ends on it
    ELSE row_number() OVER (PARTITION BY position_id, time, source, size_usd, collateral_usd, unsettled_borrowing_usd,
      unsettled_funding_usd, claimable_funding_usd, mark_price, liquidation_price ORDER BY ord_commit DESC, ord_row DESC) = 1 END
  ORDER BY ord_commit, ord_row
) TO __TARGET__ (FORMAT parquet, COMPRESSION zstd);
