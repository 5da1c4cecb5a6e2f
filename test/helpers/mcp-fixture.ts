/**
 * A small hand-built journal for the MCP tests (test/mcp*.test.ts), relative to NOW = 2026-06-02:
 * - A: P1 long SOL opened 100 days ago and closed 95 days ago (outside pro's 90-day history),
 *   P3 short SOL opened 30 days ago and closed 29 days ago, P2 long SOL open since 10 days
 *   (an increase and a collateral-only edit; a position snapshot with a liquidation price);
 * - B: short BTC opened 20 days ago, liquidated 1 day ago; C: long SOL opened 3 days ago,
 *   liquidated 2 hours ago;
 * - market snapshots of SOL/USD[WSOL-USDC] 60 days, 1 day and 10 minutes ago, of BTC and of beta.
 */
import { at, fill, marketSnapshot, positionSnapshot } from './fixtures.ts';
import type { IncomingBatch } from '../../server/journal/rows.ts';

export const NOW = at('2026-06-02T00:00:00Z');
export const DAY = 86_400_000;
export const A = 'AddrA111111111111111111111111111111111111111';
export const B = 'AddrB111111111111111111111111111111111111111';
export const C = 'AddrC111111111111111111111111111111111111111';
export const WSOL = 'SOL/USD[WSOL-USDC]';
export const BTC = 'BTC/USD[USDC-USDC]';

const sol = { market: 'SOL-PERP', market_variant: WSOL };
const btc = { market: 'BTC-PERP', market_variant: BTC };

/** The fixture's batches (fresh tx ids on every call). */
export function MCP_FIXTURE(): IncomingBatch[] {
  return [
    {
      fills: [
        fill({ ...sol, time: NOW - 100 * DAY, address: A, position_key: 'P1' }),
        fill({
          ...sol,
          time: NOW - 95 * DAY,
          address: A,
          position_key: 'P1',
          type: 'close',
          size_delta_usd: -1000,
          position_size_usd: 0,
          collateral_delta_usd: -100,
          position_collateral_usd: 0,
          price: 105,
          pnl_delta_usd: 50,
        }),
        fill({ ...sol, time: NOW - 30 * DAY, address: A, position_key: 'P3', side: 'short' }),
        fill({
          ...sol,
          time: NOW - 29 * DAY,
          address: A,
          position_key: 'P3',
          side: 'short',
          type: 'close',
          size_delta_usd: -1000,
          position_size_usd: 0,
          collateral_delta_usd: -100,
          position_collateral_usd: 0,
          price: 102,
          pnl_delta_usd: -20,
        }),
        fill({
          ...btc,
          time: NOW - 20 * DAY,
          address: B,
          position_key: 'Q1',
          side: 'short',
          size_delta_usd: 5000,
          position_size_usd: 5000,
          collateral_delta_usd: 500,
          position_collateral_usd: 500,
          price: 60000,
          entry_price: 60000,
          index_price: 60000,
        }),
      ],
      marketSnapshots: [marketSnapshot({ ...sol, time: NOW - 60 * DAY, funding_rate_long: 0.00002, funding_rate_short: -0.00003 })],
      positionSnapshots: [],
    },
    {
      fills: [
        fill({ ...sol, time: NOW - 10 * DAY, address: A, position_key: 'P2', size_delta_usd: 2000, position_size_usd: 2000, collateral_delta_usd: 200, position_collateral_usd: 200 }),
        fill({
          ...sol,
          time: NOW - 5 * DAY,
          address: A,
          position_key: 'P2',
          type: 'increase',
          size_delta_usd: 1000,
          position_size_usd: 3000,
          collateral_delta_usd: 100,
          position_collateral_usd: 300,
          price: 110,
          entry_price: 103.333333,
        }),
        fill({
          ...sol,
          time: NOW - 4 * DAY,
          address: A,
          position_key: 'P2',
          type: 'increase',
          size_delta_usd: 0,
          position_size_usd: 3000,
          collateral_delta_usd: 50,
          position_collateral_usd: 350,
          price: 108,
          entry_price: 103.333333,
          fee_usd: 0,
          fee_total_usd: 0,
        }),
        fill({ ...sol, time: NOW - 3 * DAY, address: C, position_key: 'R1' }),
        fill({
          ...btc,
          time: NOW - 1 * DAY,
          address: B,
          position_key: 'Q1',
          side: 'short',
          type: 'liquidation',
          size_delta_usd: -5000,
          position_size_usd: 0,
          collateral_delta_usd: -500,
          position_collateral_usd: 0,
          price: 66000,
          entry_price: 60000,
          pnl_delta_usd: -500,
          liquidation_fee_usd: 10,
          fee_total_usd: 10.5,
          index_price: 66000,
        }),
        fill({
          ...sol,
          time: NOW - 2 * 3_600_000,
          address: C,
          position_key: 'R1',
          type: 'liquidation',
          size_delta_usd: -1000,
          position_size_usd: 0,
          collateral_delta_usd: -100,
          position_collateral_usd: 0,
          price: 91,
          pnl_delta_usd: -90,
          liquidation_fee_usd: 2,
          fee_total_usd: 2.5,
          index_price: 91,
        }),
      ],
      marketSnapshots: [
        marketSnapshot({ ...sol, time: NOW - DAY, oi_long_usd: 4000, oi_short_usd: 1000, funding_rate_long: 0.00001, funding_rate_short: -0.00002 }),
        marketSnapshot({ ...sol, time: NOW - 600_000, index_price: 95, oi_long_usd: 3000, oi_short_usd: 0, funding_rate_long: -0.00001, funding_rate_short: 0.000005 }),
        marketSnapshot({ ...btc, time: NOW - 600_000, index_price: 65000, oi_long_usd: 0, oi_short_usd: 0 }),
        marketSnapshot({
          protocol: 'beta',
          market: 'SOL-PERP',
          market_variant: null,
          time: NOW - 300_000,
          oi_long_usd: 700,
          oi_short_usd: 300,
          funding_rate_long: -0.00001,
          funding_rate_short: -0.00002,
        }),
      ],
      positionSnapshots: [positionSnapshot({ time: NOW - 300_000, position_key: 'P2', size_usd: 3000, collateral_usd: 350, mark_price: 95, liquidation_price: 80 })],
    },
  ];
}
