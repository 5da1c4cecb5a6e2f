-- A fresh rebuild's position_latest in one pass over every position snapshot file (__FILES__,
-- replaced by server/derive/catch-up.ts with a list of file paths), instead of staging them chunk
-- by chunk: per lifecycle the newest snapshot by time, then commit, then row. That is the order
-- sql/derive/position-latest-insert.sql keeps across batches (a later batch replaces a snapshot of
-- the same time), so these are the rows the chunked fold ends with; commit and row are computed as
-- in sql/journal/stage-position-snapshots.sql. The newest time per lifecycle comes first (two
-- columns read), so only the rows at that time are read whole and go through the tie-break.
-- position_latest must be empty. No parameters.
INSERT INTO position_latest
WITH newest AS (
  SELECT position_id, max(time) AS t FROM read_parquet(__FILES__) GROUP BY position_id
)
SELECT time, protocol, position_id, position_key, size_usd, collateral_usd, unsettled_borrowing_usd,
       unsettled_funding_usd, claimable_funding_usd, mark_price, liquidation_price, source
FROM (
  SELECT b.*,
         regexp_extract(b.filename, '(\d{12})-\d{12}\.parquet$', 1)::BIGINT AS ord_commit,
         b.file_row_number AS ord_row
  FROM read_parquet(__FILES__, hive_partitioning = true, filename = true, file_row_number = true) b
  SEMI JOIN newest n ON b.position_id = n.position_id AND b.time = n.t
)
QUALIFY row_number() OVER (PARTITION BY position_id ORDER BY ord_commit DESC, ord_row DESC) = 1;
