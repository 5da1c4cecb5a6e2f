/** The records of the account routes: `GET /v1/alpha/accounts/stats`, `.../accounts/search` and `.../accounts/{address}`. */
import * as v from 'valibot';
import { address, count, described, ratio, timestamp, usd, usdNonNegative } from './scalars.ts';

/** AccountsSummary (GET /v1/alpha/accounts/stats). */
export const AccountsSummary = v.strictObject({
  total_accounts: described(count, 'Addresses with at least one alpha fill.'),
  accounts_with_open_positions: described(count, 'Accounts with at least one open position now.'),
  total_positions_ever: described(count, 'Lifecycles ever opened (a reused on-chain position counts once per lifecycle).'),
  total_active_positions: described(count, 'Lifecycles open now.'),
  total_volume_usd: described(usdNonNegative, "Lifetime traded notional of all accounts, in USD (equals the protocol's volume series)."),
  avg_net_pnl_usd: described(usd, 'Mean net PnL per account, in USD; negative = accounts lose on average.'),
  total_profits_usd: described(usdNonNegative, 'Sum of net PnL over accounts whose net PnL is above 0, in USD (>= 0).'),
  total_losses_usd: described(v.pipe(v.number(), v.maxValue(0)), 'Sum of net PnL over accounts whose net PnL is below 0, in USD (<= 0).'),
  avg_win_rate: described(ratio, 'Mean win rate over accounts with at least one closed trade, 0 to 1.'),
});

/** Account (GET /v1/alpha/accounts/search and /v1/alpha/accounts/{address}). */
export const Account = v.strictObject({
  address: described(address, 'Wallet address (base58).'),
  trades: described(count, 'Closed plus liquidated lifecycles.'),
  wins: described(count, 'Trades whose net PnL is above 0.'),
  losses: described(count, 'Trades whose net PnL is below 0.'),
  win_rate: described(ratio, 'wins / trades, 0 to 1 (0 with no trade).'),
  volume_usd: described(usdNonNegative, "Lifetime traded notional, in USD (the account's share of the volume series)."),
  net_pnl_usd: described(usd, 'Lifetime realized PnL net of every fee, plus funding earned, in USD; includes partial decreases of open lifecycles.'),
  positions: described(count, 'Lifecycles ever opened.'),
  open_positions: described(count, 'Lifecycles open now.'),
  first_trade_at: described(timestamp, 'Time of the first fill (UTC).'),
  last_trade_at: described(timestamp, 'Time of the latest fill (UTC).'),
  realized_pnl_usd: described(usd, 'Lifetime realized PnL before fees, in USD; negative = a loss.'),
  fees_usd: described(usd, 'Lifetime trading fees paid, in USD (>= 0).'),
  funding_fees_usd: described(usd, 'Lifetime funding paid, in USD (>= 0).'),
  funding_earned_usd: described(usd, 'Lifetime funding received, in USD (>= 0).'),
  borrowing_fees_usd: described(usd, 'Lifetime borrowing fees paid, in USD (>= 0).'),
  liquidation_fees_usd: described(usd, 'Lifetime liquidation fees paid, in USD (>= 0).'),
  avg_leverage: described(v.number(), "Mean of the lifecycles' max leverage (notional / collateral, e.g. 5 = 5x)."),
  max_leverage: described(v.number(), 'Highest leverage any lifecycle reached (notional / collateral).'),
  avg_position_size_usd: described(usdNonNegative, "Mean of the lifecycles' max notional, in USD."),
  max_position_size_usd: described(usdNonNegative, 'Largest notional any lifecycle reached, in USD.'),
  avg_position_duration_hours: described(v.nullable(v.number()), 'Mean duration of closed lifecycles, in hours; null while the account has none.'),
  open_notional_usd: described(usdNonNegative, 'Current notional of the open positions, in USD (sort key current_notional).'),
  markets_traded: described(v.array(v.string()), 'Distinct market symbols traded, sorted.'),
  market_variants_traded: described(v.array(v.string()), 'Distinct market variants traded, sorted.'),
});
