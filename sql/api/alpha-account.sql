-- Endpoint 14, GET /v1/alpha/accounts/{address}: one alpha Account (spec Account table, contract §6).
-- Parameters: $address VARCHAR, exact (case-sensitive) base58 address. No row = 404.
-- USD amounts rounded to 6 decimals; leverage, win rate and duration not rounded;
-- avg_position_duration_hours is NULL while the account has no closed lifecycle.
SELECT a.address,
       a.trades,
       a.wins,
       a.losses,
       a.win_rate,
       round(a.volume_usd, 6)::DOUBLE AS volume_usd,
       round(a.net_pnl_usd, 6)::DOUBLE AS net_pnl_usd,
       a.positions,
       a.open_positions,
       a.first_trade_at,
       a.last_trade_at,
       round(a.realized_pnl_usd, 6)::DOUBLE AS realized_pnl_usd,
       round(a.fees_usd, 6)::DOUBLE AS fees_usd,
       round(a.funding_fees_usd, 6)::DOUBLE AS funding_fees_usd,
       round(a.funding_earned_usd, 6)::DOUBLE AS funding_earned_usd,
       round(a.borrowing_fees_usd, 6)::DOUBLE AS borrowing_fees_usd,
       round(a.liquidation_fees_usd, 6)::DOUBLE AS liquidation_fees_usd,
       a.avg_leverage,
       a.max_leverage,
       round(a.avg_position_size_usd, 6) AS avg_position_size_usd,
       round(a.max_position_size_usd, 6)::DOUBLE AS max_position_size_usd,
       a.avg_position_duration_hours,
       round(a.open_notional_usd, 6)::DOUBLE AS open_notional_usd,
       a.markets_traded,
       a.market_variants_traded
FROM accounts a
WHERE a.protocol = 'alpha' AND a.address = $address::VARCHAR;
