-- Inserts the staged batch's newest snapshot per lifecycle where nothing newer is kept.
-- Order: time, then commit, then row (journal order). No parameters.
INSERT INTO position_latest
SELECT time, protocol, position_id, position_key, size_usd, collateral_usd, unsettled_borrowing_usd,
       unsettled_funding_usd, claimable_funding_usd, mark_price, liquidation_price, source
FROM batch_psnap b
WHERE NOT EXISTS (SELECT 1 FROM position_latest p WHERE p.position_id = b.position_id)
QUALIFY row_number() OVER (PARTITION BY position_id ORDER BY time DESC, ord_commit DESC, ord_row DESC) = 1;
