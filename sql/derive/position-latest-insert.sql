-- Inserts the staged batch's newest snapshot per lifecycle where nothing newer is kept.
-- Order: time, then commit, then row (journal order). As in market-latest-insert.sql, the newest
-- time per lifecycle comes first (one cheap aggregate) and only the rows at that time go through
-- the window that breaks ties: an arg_max over a struct of every column, built for every row,
-- cost twice this. The kept rows are looked up among the batch's lifecycles only, so the
-- anti-join hashes the batch's ids instead of every position_latest row (millions in a rebuild).
-- No parameters.
INSERT INTO position_latest
WITH newest AS (
  SELECT position_id, max(time) AS t FROM batch_psnap GROUP BY position_id
)
SELECT b.time, b.protocol, b.position_id, b.position_key, b.size_usd, b.collateral_usd,
       b.unsettled_borrowing_usd, b.unsettled_funding_usd, b.claimable_funding_usd, b.mark_price,
       b.liquidation_price, b.source
FROM batch_psnap b
JOIN newest n ON b.position_id = n.position_id AND b.time = n.t
WHERE b.position_id NOT IN (
  SELECT p.position_id FROM position_latest p WHERE p.position_id IN (SELECT position_id FROM newest))
QUALIFY row_number() OVER (PARTITION BY b.position_id ORDER BY b.ord_commit DESC, b.ord_row DESC) = 1;
