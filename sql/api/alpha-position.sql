-- Endpoint 18, GET /v1/alpha/positions/{address}/{id}: one alpha lifecycle (Position record,
-- Detail shape). No row = 404 (unknown id, or a lifecycle of another address).
-- Parameters: $address VARCHAR (exact base58 address), $id BIGINT (position_id).
-- The record fields are the alpha_lifecycle_records() macro's; the live fields (current size and
-- collateral, unsettled and claimable amounts, mark, unrealized PnL, liquidation price, updated_at)
-- are the open_alpha_positions() view's, exactly as endpoint 16 shows them, and NULL unless the
-- lifecycle is open (both macros: sql/schema/derived.sql).
SELECT r.*,
       round(o.current_size_usd, 6)::DOUBLE AS current_size_usd,
       round(o.current_collateral_usd, 6)::DOUBLE AS current_collateral_usd,
       round(o.unsettled_borrowing_usd, 6)::DOUBLE AS unsettled_borrowing_usd,
       round(o.unsettled_funding_usd, 6)::DOUBLE AS unsettled_funding_usd,
       round(o.claimable_funding_usd, 6)::DOUBLE AS claimable_funding_usd,
       o.mark_price,
       o.unrealized_pnl_usd::DOUBLE AS unrealized_pnl_usd,
       o.liquidation_price,
       o.updated_at
FROM alpha_lifecycle_records() r
LEFT JOIN open_alpha_positions() o ON o.position_id = r.position_id
WHERE r.position_id = $id::BIGINT AND r.address = $address::VARCHAR;
