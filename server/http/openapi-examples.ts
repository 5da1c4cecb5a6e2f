/**
 * Example 200 bodies of the main endpoints, by route path, for the OpenAPI document (and so for
 * `GET /docs` and docs/api.md). Written by hand in the demo data's shape; test/http/openapi-descriptions.test.ts
 * validates each against its route's response schema, so an example cannot drift from the answer.
 */

const A = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const T = '2026-06-01T12:00:00.000Z';
const TX = '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW';

const pagination = { limit: 2, offset: 0, total: 1843 };

const account = {
  address: A,
  trades: 41,
  wins: 24,
  losses: 17,
  win_rate: 0.585366,
  volume_usd: 1843210.55,
  net_pnl_usd: 12450.120331,
  positions: 43,
  open_positions: 2,
  first_trade_at: '2025-03-14T09:12:03.000Z',
  last_trade_at: '2026-06-01T11:58:20.000Z',
  realized_pnl_usd: 14890.5,
  fees_usd: 1520.4,
  funding_fees_usd: 610.22,
  funding_earned_usd: 95.5,
  borrowing_fees_usd: 380.1,
  liquidation_fees_usd: 25.2,
  avg_leverage: 7.4,
  max_leverage: 22.1,
  avg_position_size_usd: 42900.2,
  max_position_size_usd: 250000,
  avg_position_duration_hours: 31.6,
  open_notional_usd: 61000,
  markets_traded: ['BTC-PERP', 'SOL-PERP'],
  market_variants_traded: ['BTC/USD[USDC-USDC]', 'SOL/USD[WSOL-USDC]'],
};

const lifecycle = {
  protocol: 'alpha',
  position_id: 90412,
  market_variant: 'SOL/USD[WSOL-USDC]',
  market: 'SOL-PERP',
  address: A,
  side: 'long',
  max_size_usd: 25000,
  max_collateral_usd: 2500,
  entry_price: 151.204,
  opened_at: '2026-05-31T08:00:00.000Z',
};

/** Route path (h3 form) → example body. */
export const RESPONSE_EXAMPLES: Readonly<Record<string, unknown>> = {
  '/v1/protocols': {
    data: [
      { id: 'alpha', name: 'GMX-Solana', chain: 'solana' },
      { id: 'beta', name: 'Jupiter Perps', chain: 'solana' },
    ],
  },
  '/v1/protocols/stats': {
    data: [
      { protocol: 'alpha', open_interest_usd: 48210330.25, volume_24h_usd: 18250442.1, fees_24h_usd: 9912.35, liquidations_24h_usd: 120500, markets: 7 },
      { protocol: 'beta', open_interest_usd: 301220450.5, volume_24h_usd: 95120330.75, fees_24h_usd: 61230.5, liquidations_24h_usd: 845000, markets: 3 },
    ],
  },
  '/v1/alpha/markets': {
    data: [
      { market: 'SOL-PERP', market_variant: 'SOL/USD[WSOL-USDC]' },
      { market: 'SOL-PERP', market_variant: 'SOL/USD[USDC-USDC]' },
      { market: 'BTC-PERP', market_variant: 'BTC/USD[USDC-USDC]' },
    ],
    markets: ['SOL-PERP', 'BTC-PERP'],
  },
  '/v1/alpha/markets/stats': {
    data: [
      {
        market_variant: 'SOL/USD[WSOL-USDC]',
        market: 'SOL-PERP',
        index_price: 151.2034,
        open_interest_long_usd: 8120440.5,
        open_interest_short_usd: 6010220.25,
        volume_24h_usd: 5120330,
        fees_24h_usd: 3072.2,
        liquidations_24h_usd: 42000,
        funding_rate_long: -0.0000152,
        funding_rate_short: 0.0000061,
      },
    ],
  },
  '/v1/alpha/liquidations/search': {
    data: [
      {
        time: T,
        position_id: 90377,
        protocol: 'alpha',
        market: 'BTC-PERP',
        market_variant: 'BTC/USD[USDC-USDC]',
        address: A,
        side: 'short',
        size_usd: 20000,
        collateral_usd: 1210.5,
        price: 71020.5,
        entry_price: 65010,
        pnl_usd: -1848.92,
        liquidation_fee_usd: 10,
        tx: TX,
      },
    ],
    next_cursor: 'eyJ2IjoxLCJ0IjoxNzgwMzE1MjAwMDAwLCJzIjo5MDM3N30',
  },
  '/v1/alpha/open-interest/history': {
    interval: '1h',
    from: '2026-06-01T10:00:00.000Z',
    to: '2026-06-01T12:00:00.000Z',
    data: [
      { time: '2026-06-01T10:00:00.000Z', long_usd: 25120330.5, short_usd: 22010440.25, total_usd: 47130770.75 },
      { time: '2026-06-01T11:00:00.000Z', long_usd: 25320330.5, short_usd: 22890000, total_usd: 48210330.5 },
    ],
  },
  '/v1/alpha/volume/history': {
    interval: '1d',
    from: '2026-05-30T00:00:00.000Z',
    to: '2026-06-01T00:00:00.000Z',
    data: [
      { time: '2026-05-30T00:00:00.000Z', volume_usd: 17120330.5, fees_usd: 9310.2 },
      { time: '2026-05-31T00:00:00.000Z', volume_usd: 18250442.1, fees_usd: 9912.35 },
    ],
  },
  '/v1/alpha/funding-rates/history': {
    interval: '1h',
    from: '2026-06-01T10:00:00.000Z',
    to: '2026-06-01T12:00:00.000Z',
    data: [
      { time: '2026-06-01T10:00:00.000Z', funding_rate_long: -0.0000148, funding_rate_short: 0.0000059 },
      { time: '2026-06-01T11:00:00.000Z', funding_rate_long: -0.0000152, funding_rate_short: 0.0000061 },
    ],
  },
  '/v1/alpha/accounts/search': { data: [account], pagination },
  '/v1/alpha/accounts/:address': { data: account },
  '/v1/alpha/open-positions/search': {
    data: [
      {
        ...lifecycle,
        current_size_usd: 25000,
        current_collateral_usd: 2500,
        unsettled_borrowing_usd: 1.25,
        unsettled_funding_usd: 0.8,
        claimable_funding_usd: 0,
        leverage: 10,
        mark_price: 152.01,
        unrealized_pnl_usd: 133.47,
        liquidation_price: 137.9,
        updated_at: '2026-06-01T11:59:00.000Z',
      },
    ],
    pagination,
    meta: { oldest_updated: '2026-06-01T11:55:00.000Z', last_full_refresh: '2026-06-01T11:55:00.000Z' },
  },
  '/v1/alpha/positions/:address/:id': {
    data: {
      ...lifecycle,
      closed_at: '2026-06-01T09:30:00.000Z',
      exit_price: 156.9,
      max_leverage: 10,
      realized_pnl_usd: 941.92,
      fees_usd: 30,
      liquidation_fees_usd: 0,
      funding_fees_usd: 4.1,
      borrowing_fees_usd: 6.2,
      funding_earned_usd: 0,
      net_pnl_usd: 901.62,
      fill_count: 2,
      open_tx: TX,
      close_tx: TX,
      status: 'closed',
      current_size_usd: null,
      current_collateral_usd: null,
      unsettled_borrowing_usd: null,
      unsettled_funding_usd: null,
      claimable_funding_usd: null,
      mark_price: null,
      unrealized_pnl_usd: null,
      liquidation_price: null,
      updated_at: null,
    },
  },
  '/v1/alpha/positions/:address/:id/lifecycle': {
    data: [
      {
        time: '2026-05-31T08:00:00.000Z',
        type: 'open',
        size_delta_usd: 25000,
        position_size_usd: 25000,
        collateral_delta_usd: 2500,
        price: 151.204,
        entry_price: 151.204,
        pnl_delta_usd: 0,
        fee_usd: 15,
        borrowing_fee_usd: null,
        funding_fee_usd: null,
        liquidation_fee_usd: null,
        fee_total_usd: 15,
        tx: TX,
      },
      {
        time: '2026-06-01T09:30:00.000Z',
        type: 'close',
        size_delta_usd: -25000,
        position_size_usd: 0,
        collateral_delta_usd: -2500,
        price: 156.9,
        entry_price: 151.204,
        pnl_delta_usd: 941.92,
        fee_usd: 15,
        borrowing_fee_usd: 6.2,
        funding_fee_usd: 4.1,
        liquidation_fee_usd: null,
        fee_total_usd: 25.3,
        tx: TX,
      },
    ],
    pagination: { limit: 500, offset: 0, total: 2 },
  },
};
