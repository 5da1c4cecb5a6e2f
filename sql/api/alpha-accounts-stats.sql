-- Endpoint 12, GET /v1/alpha/accounts/stats: AccountsSummary over every alpha account (contract §6).
-- No parameters.
-- avg_net_pnl_usd = mean net PnL over accounts; total_profits_usd / total_losses_usd = Σ net PnL of
-- accounts above / below 0 (losses negative); avg_win_rate = mean win rate over accounts with at
-- least one trade (0 when none). USD rounded to 6 decimals. An empty protocol gives zeros.
SELECT count(*)::BIGINT AS total_accounts,
       count(*) FILTER (WHERE open_positions > 0)::BIGINT AS accounts_with_open_positions,
       coalesce(sum(positions), 0)::BIGINT AS total_positions_ever,
       coalesce(sum(open_positions), 0)::BIGINT AS total_active_positions,
       round(coalesce(sum(volume_usd), 0), 6)::DOUBLE AS total_volume_usd,
       round(coalesce(avg(net_pnl_usd), 0), 6)::DOUBLE AS avg_net_pnl_usd,
       round(coalesce(sum(net_pnl_usd) FILTER (WHERE net_pnl_usd > 0), 0), 6)::DOUBLE AS total_profits_usd,
       round(coalesce(sum(net_pnl_usd) FILTER (WHERE net_pnl_usd < 0), 0), 6)::DOUBLE AS total_losses_usd,
       coalesce(avg(win_rate) FILTER (WHERE trades > 0), 0)::DOUBLE AS avg_win_rate
FROM accounts
WHERE protocol = 'alpha';
