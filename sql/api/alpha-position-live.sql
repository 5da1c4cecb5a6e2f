-- $protocol VARCHAR: the protocol served ('alpha' or 'beta'; every endpoint of both runs this file).
-- `GET /v1/alpha/positions/{address}/{id}`, the live fields of one open alpha lifecycle (current size
-- and collateral, unsettled and claimable amounts, mark, unrealized PnL, liquidation price,
-- updated_at), exactly as `/open-positions/search` shows them (the
-- open_positions_of($protocol::VARCHAR) view, sql/schema/read-macros.sql). No row = not open.
-- Parameters: $id BIGINT (position_id).
SELECT round(o.current_size_usd, 6)::DOUBLE AS current_size_usd,
       round(o.current_collateral_usd, 6)::DOUBLE AS current_collateral_usd,
       round(o.unsettled_borrowing_usd, 6)::DOUBLE AS unsettled_borrowing_usd,
       round(o.unsettled_funding_usd, 6)::DOUBLE AS unsettled_funding_usd,
       round(o.claimable_funding_usd, 6)::DOUBLE AS claimable_funding_usd,
       o.mark_price,
       o.unrealized_pnl_usd::DOUBLE AS unrealized_pnl_usd,
       o.liquidation_price,
       o.updated_at
FROM open_positions_of($protocol::VARCHAR) o
WHERE o.position_id = $id::BIGINT;
