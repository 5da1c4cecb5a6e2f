import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { at, fill } from '../helpers/fixtures.ts';
import { openTestApp, type TestApp } from '../helpers/app.ts';
import type { IncomingBatch, IncomingFill } from '../../server/journal/rows.ts';

const NOW = at('2026-06-02T00:00:00Z');
const H = 3_600_000;
const A = 'AddrA111111111111111111111111111111111111111';
const B = 'AddrB111111111111111111111111111111111111111';
const C = 'AddrC111111111111111111111111111111111111111';
const D = 'AddrD111111111111111111111111111111111111111';
const E = 'AddrE111111111111111111111111111111111111111';

const open = (over: Partial<IncomingFill>) => fill({ type: 'open', ...over });
const close = (over: Partial<IncomingFill>) => fill({ type: 'close', size_delta_usd: -1000, position_size_usd: 0, collateral_delta_usd: -100, position_collateral_usd: 0, ...over });

/**
 * Known accounts (alpha; net = realized − trading fees − liquidation fees):
 * A: A1 long 1,000 (fee 1) closed +100 (fee 1) after 10 h → net 98, win; A2 ETH long 500 open (fee 0.5, 5x)
 *    → net 97.5, volume 2,500, trades 1, wins 1, positions 2, open 1, open notional 500
 * B: short 2,000 (fee 2, 10x), liquidated pnl −150, fee 1.5, liquidation fee 10 → net −163.5, volume 2,000, 1 loss
 * C: two SOL lifecycles: +10 (fees 0.5+0.5) → 9 win; −20 (fees 0.5+0.5) → −21 loss → net −12, volume 4,000
 * D, E: identical open 300 (fee 0.3) → net −0.3, volume 300, no trades, open notional 300 (ties → address)
 * A also trades on beta (not counted).
 */
function journal(): IncomingBatch {
  const fills = [
    open({ time: NOW - 30 * H, position_key: 'A1', address: A, fee_usd: 1, fee_total_usd: 1 }),
    close({ time: NOW - 20 * H, position_key: 'A1', address: A, pnl_delta_usd: 100, price: 110, fee_usd: 1, fee_total_usd: 1 }),
    open({
      time: NOW - 5 * H,
      position_key: 'A2',
      address: A,
      market: 'ETH-PERP',
      market_variant: 'ETH/USD[USDC-USDC]',
      size_delta_usd: 500,
      position_size_usd: 500,
      fee_usd: 0.5,
      fee_total_usd: 0.5,
    }),
    open({
      time: NOW - 4 * H,
      protocol: 'beta',
      position_key: 'AB',
      address: A,
      market: 'SOL-PERP',
      market_variant: null,
      size_delta_usd: 9000,
      position_size_usd: 9000,
      fee_usd: 5,
      fee_total_usd: 5,
    }),
    open({
      time: NOW - 40 * H,
      position_key: 'B1',
      address: B,
      market: 'BTC-PERP',
      market_variant: 'BTC/USD[USDC-USDC]',
      side: 'short',
      size_delta_usd: 2000,
      position_size_usd: 2000,
      collateral_delta_usd: 200,
      position_collateral_usd: 200,
      fee_usd: 2,
      fee_total_usd: 2,
    }),
    fill({
      time: NOW - 38 * H,
      position_key: 'B1',
      address: B,
      market: 'BTC-PERP',
      market_variant: 'BTC/USD[USDC-USDC]',
      side: 'short',
      type: 'liquidation',
      size_delta_usd: -2000,
      position_size_usd: 0,
      collateral_delta_usd: -200,
      position_collateral_usd: 0,
      pnl_delta_usd: -150,
      fee_usd: 1.5,
      liquidation_fee_usd: 10,
      fee_total_usd: 11.5,
    }),
    open({ time: NOW - 50 * H, position_key: 'C1', address: C }),
    close({ time: NOW - 48 * H, position_key: 'C1', address: C, pnl_delta_usd: 10 }),
    open({ time: NOW - 47 * H, position_key: 'C2', address: C }),
    close({ time: NOW - 43 * H, position_key: 'C2', address: C, pnl_delta_usd: -20 }),
    open({ time: NOW - 3 * H, position_key: 'D1', address: D, size_delta_usd: 300, position_size_usd: 300, fee_usd: 0.3, fee_total_usd: 0.3 }),
    open({ time: NOW - 3 * H, position_key: 'E1', address: E, size_delta_usd: 300, position_size_usd: 300, fee_usd: 0.3, fee_total_usd: 0.3 }),
  ].sort((x, y) => x.time - y.time);
  return { fills, marketSnapshots: [], positionSnapshots: [] };
}

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp({ now: NOW, batches: [journal()] });
});
afterAll(async () => {
  await t?.close();
});

// `internal`: these tests send more than a trial key's 60 requests per minute and are not about limits
// (test/limits/limits.test.ts is); `GET /v1/alpha/accounts/stats`, `GET /v1/alpha/accounts/search` and
// `GET /v1/alpha/accounts/{address}` have no plan-dependent clamp.
async function json(path: string) {
  const res = await t.get(path, 'internal');
  return { status: res.status, body: (await res.json()) as any };
}
const addrs = (body: any) => body.data.map((a: any) => a.address);

describe('12: GET /v1/alpha/accounts/stats', () => {
  it('summarizes alpha accounts only', async () => {
    const { status, body } = await json('/v1/alpha/accounts/stats');
    expect(status).toBe(200);
    expect(body).toEqual({
      data: {
        total_accounts: 5,
        accounts_with_open_positions: 3,
        total_positions_ever: 7,
        total_active_positions: 3,
        total_volume_usd: 9100,
        avg_net_pnl_usd: -15.72,
        total_profits_usd: 97.5,
        total_losses_usd: -176.1,
        avg_win_rate: 0.5,
      },
    });
  });
});

describe('14: GET /v1/alpha/accounts/:address', () => {
  it('returns every Account field of A', async () => {
    const { status, body } = await json(`/v1/alpha/accounts/${A}`);
    expect(status).toBe(200);
    expect(body).toEqual({
      data: {
        address: A,
        trades: 1,
        wins: 1,
        losses: 0,
        win_rate: 1,
        volume_usd: 2500,
        net_pnl_usd: 97.5,
        positions: 2,
        open_positions: 1,
        first_trade_at: '2026-05-31T18:00:00.000Z',
        last_trade_at: '2026-06-01T19:00:00.000Z',
        realized_pnl_usd: 100,
        fees_usd: 2.5,
        funding_fees_usd: 0,
        funding_earned_usd: 0,
        borrowing_fees_usd: 0,
        liquidation_fees_usd: 0,
        avg_leverage: 7.5,
        max_leverage: 10,
        avg_position_size_usd: 750,
        max_position_size_usd: 1000,
        avg_position_duration_hours: 10,
        open_notional_usd: 500,
        markets_traded: ['ETH-PERP', 'SOL-PERP'],
        market_variants_traded: ['ETH/USD[USDC-USDC]', 'SOL/USD[WSOL-USDC]'],
      },
    });
  });

  it('B: liquidation counts as a losing trade and its fee is reported', async () => {
    const { body } = await json(`/v1/alpha/accounts/${B}`);
    expect(body.data).toMatchObject({ trades: 1, wins: 0, losses: 1, win_rate: 0, net_pnl_usd: -163.5, liquidation_fees_usd: 10, volume_usd: 2000, open_positions: 0, open_notional_usd: 0 });
  });

  it('D: no closed trade → duration null', async () => {
    const { body } = await json(`/v1/alpha/accounts/${D}`);
    expect(body.data).toMatchObject({ trades: 0, win_rate: 0, avg_position_duration_hours: null, open_notional_usd: 300 });
  });

  it('unknown, malformed, wrong-case or beta-only addresses are 404 not_found', async () => {
    for (const addr of ['AddrZ111111111111111111111111111111111111111', 'not-an-address', '0OIl', A.toLowerCase(), 'x'.repeat(60)]) {
      const { status, body } = await json(`/v1/alpha/accounts/${addr}`);
      expect(status, addr).toBe(404);
      expect(body.error.code).toBe('not_found');
    }
  });
});

describe('13: GET /v1/alpha/accounts/search', () => {
  it('default: net_pnl desc, then address asc; pagination echoes limit/offset/total', async () => {
    const { status, body } = await json('/v1/alpha/accounts/search');
    expect(status).toBe(200);
    expect(addrs(body)).toEqual([A, D, E, C, B]);
    expect(body.pagination).toEqual({ limit: 500, offset: 0, total: 5 });
    expect(body.data[0]).toMatchObject({ address: A, net_pnl_usd: 97.5, open_notional_usd: 500 });
  });

  it.each([
    ['net_pnl', 'desc', [A, D, E, C, B]],
    ['net_pnl', 'asc', [B, C, D, E, A]],
    ['volume', 'desc', [C, A, B, D, E]],
    ['volume', 'asc', [D, E, B, A, C]],
    ['win_rate', 'desc', [A, C, B, D, E]],
    ['win_rate', 'asc', [B, D, E, C, A]],
    ['positions', 'desc', [A, C, B, D, E]],
    ['positions', 'asc', [B, D, E, A, C]],
    ['current_notional', 'desc', [A, D, E, B, C]],
    ['current_notional', 'asc', [B, C, D, E, A]],
  ])('sort_by=%s order=%s', async (sortBy, order, expected) => {
    const { status, body } = await json(`/v1/alpha/accounts/search?sort_by=${sortBy}&order=${order}`);
    expect(status).toBe(200);
    expect(addrs(body)).toEqual(expected);
  });

  it('filters: min_trades, has_active_positions, search prefix (case-insensitive)', async () => {
    expect(addrs((await json('/v1/alpha/accounts/search?min_trades=0')).body)).toEqual([A, D, E, C, B]);
    expect(addrs((await json('/v1/alpha/accounts/search?min_trades=1')).body)).toEqual([A, C, B]);
    expect(addrs((await json('/v1/alpha/accounts/search?min_trades=2')).body)).toEqual([C]);
    expect(addrs((await json('/v1/alpha/accounts/search?has_active_positions=true')).body)).toEqual([A, D, E]);
    expect(addrs((await json('/v1/alpha/accounts/search?has_active_positions=false')).body)).toEqual([C, B]);
    expect(addrs((await json('/v1/alpha/accounts/search?search=ADDRc')).body)).toEqual([C]);
    expect(addrs((await json('/v1/alpha/accounts/search?search=addr')).body)).toEqual([A, D, E, C, B]);
    expect(addrs((await json('/v1/alpha/accounts/search?search=Zzzz')).body)).toEqual([]);
    const both = await json('/v1/alpha/accounts/search?has_active_positions=true&min_trades=1&sort_by=volume');
    expect(addrs(both.body)).toEqual([A]);
    expect(both.body.pagination.total).toBe(1);
  });

  it('offset walk visits every account exactly once; total ignores the page', async () => {
    for (const [sortBy, order] of [
      ['net_pnl', 'desc'],
      ['volume', 'asc'],
      ['current_notional', 'desc'],
    ]) {
      const seen: string[] = [];
      for (let offset = 0; offset < 7; offset += 2) {
        const { body } = await json(`/v1/alpha/accounts/search?sort_by=${sortBy}&order=${order}&limit=2&offset=${offset}`);
        expect(body.pagination).toEqual({ limit: 2, offset, total: 5 });
        seen.push(...addrs(body));
      }
      expect(seen.length).toBe(5);
      expect(new Set(seen).size).toBe(5);
      expect(seen).toEqual(addrs((await json(`/v1/alpha/accounts/search?sort_by=${sortBy}&order=${order}`)).body));
    }
    const past = await json('/v1/alpha/accounts/search?offset=10');
    expect(past.body).toEqual({ data: [], pagination: { limit: 500, offset: 10, total: 5 } });
  });

  it.each([
    ['search=abc', 'search'],
    ['search=abc-d', 'search'],
    ['search=Addr_', 'search'],
    [`search=${'a'.repeat(45)}`, 'search'],
    ['sort_by=pnl', 'sort_by'],
    ['order=up', 'order'],
    ['min_trades=-1', 'min_trades'],
    ['min_trades=1.5', 'min_trades'],
    ['has_active_positions=1', 'has_active_positions'],
    ['has_active_positions=TRUE', 'has_active_positions'],
    ['limit=0', 'limit'],
    ['limit=501', 'limit'],
    ['offset=-1', 'offset'],
  ])('400 invalid_parameter on %s', async (qs, param) => {
    const { status, body } = await json(`/v1/alpha/accounts/search?${qs}`);
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 'invalid_parameter', param });
  });

  it('unknown parameter → 400 unknown_parameter', async () => {
    const { status, body } = await json('/v1/alpha/accounts/search?sortby=volume');
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 'unknown_parameter', param: 'sortby' });
  });

  it('a 4- and a 44-character search are accepted', async () => {
    expect((await json('/v1/alpha/accounts/search?search=Addr')).status).toBe(200);
    const full = await json(`/v1/alpha/accounts/search?search=${E}`);
    expect(addrs(full.body)).toEqual([E]);
  });
});

describe('12-14 on an empty journal, then its first alpha fill', () => {
  it('answer zeros and empty pages (not a 500), then the account the fill made', async () => {
    const empty = await openTestApp({ now: NOW });
    try {
      const get = async (path: string) => {
        const res = await empty.get(path, 'internal');
        return { status: res.status, body: (await res.json()) as any };
      };
      const search = await get('/v1/alpha/accounts/search?sort_by=volume');
      expect(search).toEqual({ status: 200, body: { data: [], pagination: { limit: 500, offset: 0, total: 0 } } });
      expect((await get('/v1/alpha/accounts/search?search=Addr&min_trades=1')).body.data).toEqual([]);
      expect((await get('/v1/alpha/accounts/stats')).body.data).toMatchObject({ total_accounts: 0, total_volume_usd: 0, avg_win_rate: 0 });
      expect((await get(`/v1/alpha/accounts/${A}`)).status).toBe(404);
      // the snapshot loaded empty takes its first rows (and their columns) from the append's patch
      await empty.service.append({ fills: [open({ time: NOW - H, position_key: 'Z1', address: A })], marketSnapshots: [], positionSnapshots: [] });
      const after = await get('/v1/alpha/accounts/search?sort_by=volume');
      expect(after.body.pagination.total).toBe(1);
      expect(after.body.data).toEqual([(await get(`/v1/alpha/accounts/${A}`)).body.data]);
      expect(after.body.data[0]).toMatchObject({ address: A, volume_usd: 1000, positions: 1, open_positions: 1 });
      expect((await get('/v1/alpha/accounts/stats')).body.data).toMatchObject({ total_accounts: 1, total_volume_usd: 1000, total_active_positions: 1 });
    } finally {
      await empty.close();
    }
  });
});
