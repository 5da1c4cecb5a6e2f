-- Endpoint 18, GET /v1/alpha/positions/{address}/{id}: one alpha lifecycle (Position record,
-- Detail shape). No row = 404 (unknown id, or a lifecycle of another address).
-- Parameters: $address VARCHAR (exact base58 address), $id BIGINT (position_id).
-- Live fields (current_size_usd, current_collateral_usd, unsettled_borrowing_usd,
-- unsettled_funding_usd, claimable_funding_usd, mark_price, unrealized_pnl_usd, liquidation_price,
-- updated_at) come from the lifecycle's latest position snapshot (position_latest) and are NULL
-- unless the lifecycle is open. An open lifecycle without any snapshot falls back to the state after
-- its last fill: size and collateral after it, the fill's index price as mark, no unsettled
-- charges (fills settle them), no liquidation price, updated_at = the fill's time.
-- unrealized_pnl_usd = size × (mark / entry − 1), negated for shorts (entry = lifecycle entry_price).
-- USD rounded to 6 decimals; prices and leverage not rounded.
WITH l AS (
  SELECT * FROM lifecycles
  WHERE protocol = 'alpha' AND position_id = $id::BIGINT AND address = $address::VARCHAR
),
live AS (
  SELECT l.position_id,
         coalesce(p.size_usd, lf.position_size_usd) AS size_usd,
         coalesce(p.collateral_usd, lf.position_collateral_usd) AS collateral_usd,
         CASE WHEN p.position_id IS NULL THEN 0 ELSE p.unsettled_borrowing_usd END AS unsettled_borrowing_usd,
         CASE WHEN p.position_id IS NULL THEN 0 ELSE p.unsettled_funding_usd END AS unsettled_funding_usd,
         CASE WHEN p.position_id IS NULL THEN 0 ELSE p.claimable_funding_usd END AS claimable_funding_usd,
         CASE WHEN p.position_id IS NULL THEN lf.index_price ELSE p.mark_price END AS mark_price,
         p.liquidation_price,
         CASE WHEN p.position_id IS NULL THEN lf.time ELSE p.time END AS updated_at
  FROM l
  JOIN fills lf ON lf.seq = l.last_seq
  LEFT JOIN position_latest p ON p.position_id = l.position_id AND p.protocol = 'alpha'
  WHERE l.status = 'open'
)
SELECT l.protocol,
       l.position_id,
       l.market_variant,
       l.market,
       l.address,
       l.side,
       round(live.size_usd, 6)::DOUBLE AS current_size_usd,
       round(l.max_size_usd, 6)::DOUBLE AS max_size_usd,
       round(live.collateral_usd, 6)::DOUBLE AS current_collateral_usd,
       round(l.max_collateral_usd, 6)::DOUBLE AS max_collateral_usd,
       round(live.unsettled_borrowing_usd, 6)::DOUBLE AS unsettled_borrowing_usd,
       round(live.unsettled_funding_usd, 6)::DOUBLE AS unsettled_funding_usd,
       round(live.claimable_funding_usd, 6)::DOUBLE AS claimable_funding_usd,
       l.entry_price,
       l.opened_at,
       l.status,
       l.closed_at,
       l.exit_price,
       l.max_leverage,
       round(l.realized_pnl_usd, 6)::DOUBLE AS realized_pnl_usd,
       round(l.fees_usd, 6)::DOUBLE AS fees_usd,
       round(l.liquidation_fees_usd, 6)::DOUBLE AS liquidation_fees_usd,
       round(l.funding_fees_usd, 6)::DOUBLE AS funding_fees_usd,
       round(l.borrowing_fees_usd, 6)::DOUBLE AS borrowing_fees_usd,
       round(l.funding_earned_usd, 6)::DOUBLE AS funding_earned_usd,
       round(l.net_pnl_usd, 6)::DOUBLE AS net_pnl_usd,
       l.fill_count,
       l.open_tx,
       l.close_tx,
       live.mark_price,
       round(CASE WHEN live.position_id IS NULL OR l.entry_price = 0 THEN NULL
                  ELSE live.size_usd::DOUBLE * (live.mark_price / l.entry_price - 1)
                       * CASE WHEN l.side = 'short' THEN -1 ELSE 1 END END, 6) AS unrealized_pnl_usd,
       live.liquidation_price,
       live.updated_at
FROM l
LEFT JOIN live ON live.position_id = l.position_id;
