-- Every open alpha position, for endpoint 16's in-memory search (server/http/open-positions-index.ts):
-- the Open-search row exactly as sql/api/alpha-open-positions-search.sql serves it, then what the
-- search filters, sorts and summarizes by that the row does not carry as served: opened_us (the
-- opening time in epoch µs, the SQL's sort value), liq_proximity, and source (poll / event / NULL).
-- No parameters.
SELECT 'alpha' AS protocol,
       r.position_id,
       r.market_variant,
       r.market,
       r.address,
       r.side,
       round(r.current_size_usd, 6)::DOUBLE AS current_size_usd,
       round(r.max_size_usd, 6)::DOUBLE AS max_size_usd,
       round(r.current_collateral_usd, 6)::DOUBLE AS current_collateral_usd,
       round(r.max_collateral_usd, 6)::DOUBLE AS max_collateral_usd,
       round(r.unsettled_borrowing_usd, 6)::DOUBLE AS unsettled_borrowing_usd,
       round(r.unsettled_funding_usd, 6)::DOUBLE AS unsettled_funding_usd,
       round(r.claimable_funding_usd, 6)::DOUBLE AS claimable_funding_usd,
       r.entry_price,
       r.leverage,
       r.opened_at,
       r.mark_price,
       r.unrealized_pnl_usd::DOUBLE AS unrealized_pnl_usd,
       r.liquidation_price,
       r.updated_at,
       epoch_us(r.opened_at)::DOUBLE AS opened_us,
       r.liq_proximity,
       r.source
FROM open_alpha_positions() r;
