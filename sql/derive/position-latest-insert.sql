-- Inserts the staged batch's newest snapshot per lifecycle where nothing newer is kept.
-- Order: time, then commit, then row (journal order); one arg_max per lifecycle. No parameters.
INSERT INTO position_latest
SELECT l.*
FROM (
  SELECT unnest(arg_max(
    {time: time, protocol: protocol, position_id: position_id, position_key: position_key, size_usd: size_usd,
     collateral_usd: collateral_usd, unsettled_borrowing_usd: unsettled_borrowing_usd,
     unsettled_funding_usd: unsettled_funding_usd, claimable_funding_usd: claimable_funding_usd,
     mark_price: mark_price, liquidation_price: liquidation_price, source: source},
    (time, ord_commit, ord_row)))
  FROM batch_psnap
  GROUP BY position_id
) l
WHERE NOT EXISTS (SELECT 1 FROM position_latest p WHERE p.position_id = l.position_id);
