import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { at, fill, marketSnapshot, positionSnapshot } from '../helpers/fixtures.ts';
import { openTestApp, type TestApp } from '../helpers/app.ts';
import { openPositionRoutes } from '../../server/http/routes/open-positions.ts';
import type { IncomingBatch, IncomingFill } from '../../server/journal/rows.ts';

const NOW = at('2026-06-02T00:00:00Z');
const H = 3_600_000;
const A = 'AddrA111111111111111111111111111111111111111';
const B = 'AddrB111111111111111111111111111111111111111';
const C = 'AddrC111111111111111111111111111111111111111';
const D = 'AddrD111111111111111111111111111111111111111';
const E = 'AddrE111111111111111111111111111111111111111';
const F = 'AddrF111111111111111111111111111111111111111';

const SOL_W = { market: 'SOL-PERP', market_variant: 'SOL/USD[WSOL-USDC]' };
const SOL_U = { market: 'SOL-PERP', market_variant: 'SOL/USD[USDC-USDC]' };
const ETH = { market: 'ETH-PERP', market_variant: 'ETH/USD[USDC-USDC]' };
const BTC = { market: 'BTC-PERP', market_variant: 'BTC/USD[USDC-USDC]' };
const ethPrices = { price: 2000, entry_price: 2000, index_price: 2000 };

const open = (over: Partial<IncomingFill>) => fill({ type: 'open', ...over });
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Open alpha positions (key: address, variant, side, size/collateral, live source → mark, liq):
 * P1 A SOL/WSOL long 1000/100 (lev 10), poll snapshot at −2h: mark 110, liq 91 → uPnL +100, prox 19/110
 * P2 B SOL/USDC short 2000/400 (5), event snapshots at −9h and −1h (latest: mark 105, liq 119) → −100, 14/105
 * P3 C ETH long 500/250 (2), no snapshot: mark = ETH market snapshot (−30m, newer than the fill) 2100 → +25,
 *    no liq price, updated_at = the fill (−8h)
 * P4 D SOL/WSOL short 3000/150 opened −7h, increased +1000/+50 at −3h (index 104) → 4000/200 (20); its poll
 *    snapshot (−5h) predates the increase so the fill state is used: mark = the fill's index price 104
 *    (the SOL/WSOL market snapshot at −4h is older) → −160, no liq price, updated_at −3h, not a poll row
 * P5 E SOL/WSOL long 1000/100 (10), event snapshot at −6h: mark 100, liq 90.5 → 0, prox 0.095
 * P6 A ETH short 500/100 (5), poll snapshot at −1.5h: mark 2050, liq 2150 → −12.5, prox 100/2050
 * P7 A SOL/USDC long 1000/100 (10), event snapshot at −5h: mark 100, liq 90.5 → 0, prox 0.095
 * Not open: F on BTC opened −20h, closed −15h (with a poll snapshot at −16h); A's beta position (poll at −10m).
 */
function journal(): IncomingBatch {
  const fills = [
    open({ time: NOW - 10 * H, position_key: 'P1', address: A, ...SOL_W }),
    open({ time: NOW - 9 * H, position_key: 'P2', address: B, ...SOL_U, side: 'short', size_delta_usd: 2000, position_size_usd: 2000, collateral_delta_usd: 400, position_collateral_usd: 400 }),
    open({ time: NOW - 8 * H, position_key: 'P3', address: C, ...ETH, ...ethPrices, size_delta_usd: 500, position_size_usd: 500, collateral_delta_usd: 250, position_collateral_usd: 250 }),
    open({ time: NOW - 7 * H, position_key: 'P4', address: D, ...SOL_W, side: 'short', size_delta_usd: 3000, position_size_usd: 3000, collateral_delta_usd: 150, position_collateral_usd: 150 }),
    fill({
      time: NOW - 3 * H,
      type: 'increase',
      position_key: 'P4',
      address: D,
      ...SOL_W,
      side: 'short',
      size_delta_usd: 1000,
      position_size_usd: 4000,
      collateral_delta_usd: 50,
      position_collateral_usd: 200,
      index_price: 104,
    }),
    open({ time: NOW - 6 * H, position_key: 'P5', address: E, ...SOL_W }),
    open({ time: NOW - 4 * H, position_key: 'P6', address: A, ...ETH, ...ethPrices, side: 'short', size_delta_usd: 500, position_size_usd: 500 }),
    open({ time: NOW - 5 * H, position_key: 'P7', address: A, ...SOL_U }),
    open({ time: NOW - 20 * H, position_key: 'F1', address: F, ...BTC }),
    fill({ time: NOW - 15 * H, type: 'close', position_key: 'F1', address: F, ...BTC, size_delta_usd: -1000, position_size_usd: 0, collateral_delta_usd: -100, position_collateral_usd: 0 }),
    open({ time: NOW - 2 * H, protocol: 'beta', position_key: 'BETA1', address: A, market: 'SOL-PERP', market_variant: null }),
  ].sort((x, y) => x.time - y.time);
  const positionSnapshots = [
    positionSnapshot({
      time: NOW - 2 * H,
      position_key: 'P1',
      unsettled_borrowing_usd: 1.5,
      unsettled_funding_usd: 0.5,
      claimable_funding_usd: 0.25,
      mark_price: 110,
      liquidation_price: 91,
      source: 'poll',
    }),
    positionSnapshot({ time: NOW - 9 * H, position_key: 'P2', size_usd: 2000, collateral_usd: 400, mark_price: 100, liquidation_price: 119 }),
    positionSnapshot({ time: NOW - 1 * H, position_key: 'P2', size_usd: 2000, collateral_usd: 400, mark_price: 105, liquidation_price: 119 }),
    positionSnapshot({ time: NOW - 5 * H, position_key: 'P4', size_usd: 3000, collateral_usd: 150, mark_price: 101, liquidation_price: 104.5, source: 'poll' }),
    positionSnapshot({ time: NOW - 6 * H, position_key: 'P5', liquidation_price: 90.5 }),
    positionSnapshot({ time: NOW - 1.5 * H, position_key: 'P6', size_usd: 500, collateral_usd: 100, mark_price: 2050, liquidation_price: 2150, source: 'poll' }),
    positionSnapshot({ time: NOW - 5 * H, position_key: 'P7', liquidation_price: 90.5 }),
    positionSnapshot({ time: NOW - 16 * H, position_key: 'F1', mark_price: 99, liquidation_price: 90, source: 'poll' }),
    positionSnapshot({ time: NOW - H / 6, protocol: 'beta', position_key: 'BETA1', mark_price: 100, liquidation_price: 80, source: 'poll' }),
  ];
  const marketSnapshots = [
    marketSnapshot({ time: NOW - 4 * H, ...SOL_W, index_price: 108 }),
    marketSnapshot({ time: NOW - 1 * H, ...SOL_U, index_price: 105 }),
    marketSnapshot({ time: NOW - H / 2, ...ETH, index_price: 2100 }),
  ];
  return { fills, marketSnapshots, positionSnapshots };
}

let t: TestApp;
/** position_id of each lifecycle key */
const id: Record<string, number> = {};
/** response schemas of the two routes, as registered */
let schemas: v.GenericSchema[];
beforeAll(async () => {
  t = await openTestApp({ now: NOW, batches: [journal()] });
  for (const r of await t.service.db.querySql("SELECT position_key, position_id FROM lifecycles WHERE protocol = 'alpha'")) {
    id[r.position_key as string] = r.position_id as number;
  }
  schemas = openPositionRoutes(t.service, 'alpha', null).map((r) => r.response as v.GenericSchema);
});
afterAll(async () => {
  await t?.close();
});

// `internal`: these tests send more than a trial key's 60 requests per minute and are not about
// limits (test/limits/limits.test.ts is); `GET /v1/alpha/open-positions/search` has no plan-dependent clamp.
async function json(path: string) {
  const res = await t.get(path, 'internal');
  return { status: res.status, body: (await res.json()) as any };
}
/** GET search; asserts 200 and the response schema; returns the body */
async function search(qs = ''): Promise<any> {
  const { status, body } = await json(`/v1/alpha/open-positions/search${qs ? `?${qs}` : ''}`);
  expect(status, JSON.stringify(body)).toBe(200);
  v.parse(schemas[0]!, body);
  return body;
}
async function stats(qs = ''): Promise<any> {
  const { status, body } = await json(`/v1/alpha/open-positions/stats${qs ? `?${qs}` : ''}`);
  expect(status, JSON.stringify(body)).toBe(200);
  v.parse(schemas[1]!, body);
  return body.data;
}
const keysOf = (body: any) => body.data.map((r: any) => Object.keys(id).find((k) => id[k] === r.position_id));

describe('16: GET /v1/alpha/open-positions/search', () => {
  it('ids follow the journal order (P1 < P7 < P6 for the position_id tie-breaker)', () => {
    expect(id.P1!).toBeLessThan(id.P7!);
    expect(id.P7!).toBeLessThan(id.P6!);
  });

  it('default: size desc, then address asc, then position_id desc; every field of a row', async () => {
    const body = await search();
    expect(keysOf(body)).toEqual(['P4', 'P2', 'P7', 'P1', 'P5', 'P6', 'P3']);
    expect(body.pagination).toEqual({ limit: 500, offset: 0, total: 7 });
    expect(body.meta).toEqual({ oldest_updated: iso(NOW - 8 * H), last_full_refresh: iso(NOW - 1.5 * H) });
    const byKey = (k: string) => body.data.find((r: any) => r.position_id === id[k]);
    expect(byKey('P1')).toEqual({
      protocol: 'alpha',
      position_id: id.P1,
      market_variant: 'SOL/USD[WSOL-USDC]',
      market: 'SOL-PERP',
      address: A,
      side: 'long',
      current_size_usd: 1000,
      max_size_usd: 1000,
      current_collateral_usd: 100,
      max_collateral_usd: 100,
      unsettled_borrowing_usd: 1.5,
      unsettled_funding_usd: 0.5,
      claimable_funding_usd: 0.25,
      entry_price: 100,
      leverage: 10,
      opened_at: iso(NOW - 10 * H),
      mark_price: 110,
      unrealized_pnl_usd: 100,
      liquidation_price: 91,
      updated_at: iso(NOW - 2 * H),
    });
    // no snapshot: lifecycle state, mark from the (newer) market snapshot, updated_at = the fill
    expect(byKey('P3')).toMatchObject({
      side: 'long',
      current_size_usd: 500,
      current_collateral_usd: 250,
      unsettled_borrowing_usd: 0,
      unsettled_funding_usd: 0,
      claimable_funding_usd: 0,
      entry_price: 2000,
      leverage: 2,
      mark_price: 2100,
      unrealized_pnl_usd: 25,
      liquidation_price: null,
      updated_at: iso(NOW - 8 * H),
    });
    // snapshot older than the last fill: fill state, mark = the fill's index price (market snapshot is older)
    expect(byKey('P4')).toMatchObject({
      side: 'short',
      current_size_usd: 4000,
      max_size_usd: 4000,
      current_collateral_usd: 200,
      leverage: 20,
      mark_price: 104,
      unrealized_pnl_usd: -160,
      liquidation_price: null,
      updated_at: iso(NOW - 3 * H),
      opened_at: iso(NOW - 7 * H),
    });
    expect(byKey('P2')).toMatchObject({ side: 'short', mark_price: 105, unrealized_pnl_usd: -100, liquidation_price: 119, leverage: 5, updated_at: iso(NOW - H) });
    expect(byKey('P6')).toMatchObject({ mark_price: 2050, unrealized_pnl_usd: -12.5, liquidation_price: 2150, leverage: 5 });
  });

  it('a closed position and other protocols never appear', async () => {
    const body = await search();
    expect(body.data.map((r: any) => r.address)).not.toContain(F);
    expect(body.data.every((r: any) => r.protocol === 'alpha')).toBe(true);
    expect((await search('market=BTC-PERP')).data).toEqual([]);
    expect(await search(`address=${F}`)).toEqual({
      data: [],
      pagination: { limit: 500, offset: 0, total: 0 },
      meta: { oldest_updated: null, last_full_refresh: null },
    });
  });

  it.each([
    ['size', 'desc', ['P4', 'P2', 'P7', 'P1', 'P5', 'P6', 'P3']],
    ['size', 'asc', ['P6', 'P3', 'P7', 'P1', 'P5', 'P2', 'P4']],
    ['pnl', 'desc', ['P1', 'P3', 'P7', 'P5', 'P6', 'P2', 'P4']],
    ['pnl', 'asc', ['P4', 'P2', 'P6', 'P7', 'P5', 'P3', 'P1']],
    ['collateral', 'desc', ['P2', 'P3', 'P4', 'P6', 'P7', 'P1', 'P5']],
    ['collateral', 'asc', ['P6', 'P7', 'P1', 'P5', 'P4', 'P3', 'P2']],
    ['leverage', 'desc', ['P4', 'P7', 'P1', 'P5', 'P6', 'P2', 'P3']],
    ['leverage', 'asc', ['P3', 'P6', 'P2', 'P7', 'P1', 'P5', 'P4']],
    ['opened_at', 'desc', ['P6', 'P7', 'P5', 'P4', 'P3', 'P2', 'P1']],
    ['opened_at', 'asc', ['P1', 'P2', 'P3', 'P4', 'P5', 'P7', 'P6']],
    ['liq_proximity', 'asc', ['P6', 'P7', 'P5', 'P2', 'P1']],
    ['liq_proximity', 'desc', ['P1', 'P2', 'P7', 'P5', 'P6']],
  ])('sort_by=%s order=%s', async (sortBy, order, expected) => {
    const body = await search(`sort_by=${sortBy}&order=${order}`);
    expect(keysOf(body)).toEqual(expected);
    expect(body.pagination.total).toBe(expected.length);
  });

  it('order defaults to desc for every sort', async () => {
    expect(keysOf(await search('sort_by=pnl'))).toEqual(['P1', 'P3', 'P7', 'P5', 'P6', 'P2', 'P4']);
    expect(keysOf(await search('sort_by=liq_proximity'))).toEqual(['P1', 'P2', 'P7', 'P5', 'P6']);
  });

  it('liq_proximity excludes rows without a liquidation price, also from total and meta', async () => {
    const body = await search('sort_by=liq_proximity&order=asc');
    expect(keysOf(body)).not.toContain('P3');
    expect(keysOf(body)).not.toContain('P4');
    expect(body.data.every((r: any) => r.liquidation_price !== null)).toBe(true);
    expect(body.pagination.total).toBe(5);
    expect(body.meta).toEqual({ oldest_updated: iso(NOW - 6 * H), last_full_refresh: iso(NOW - 1.5 * H) });
    const prox = body.data.map((r: any) => Math.abs(r.mark_price - r.liquidation_price) / r.mark_price);
    expect(prox).toEqual([...prox].sort((x, y) => x - y));
  });

  it('filters: market_variant, market (all variants, any case), address, side, min_size_usd, combined', async () => {
    expect(keysOf(await search('market_variant=SOL/USD[WSOL-USDC]'))).toEqual(['P4', 'P1', 'P5']);
    expect(keysOf(await search(`market_variant=${encodeURIComponent('SOL/USD[USDC-USDC]')}`))).toEqual(['P2', 'P7']);
    expect(keysOf(await search('market=SOL-PERP'))).toEqual(['P4', 'P2', 'P7', 'P1', 'P5']);
    expect(keysOf(await search('market=sol-perp'))).toEqual(['P4', 'P2', 'P7', 'P1', 'P5']);
    expect(keysOf(await search('market=ETH-PERP'))).toEqual(['P6', 'P3']);
    expect(keysOf(await search(`address=${A}`))).toEqual(['P7', 'P1', 'P6']);
    expect(keysOf(await search('side=short'))).toEqual(['P4', 'P2', 'P6']);
    expect(keysOf(await search('side=long'))).toEqual(['P7', 'P1', 'P5', 'P3']);
    expect(keysOf(await search('min_size_usd=0'))).toHaveLength(7);
    expect(keysOf(await search('min_size_usd=1000'))).toEqual(['P4', 'P2', 'P7', 'P1', 'P5']);
    expect(keysOf(await search('min_size_usd=1000.5'))).toEqual(['P4', 'P2']);
    expect(keysOf(await search('market=SOL-PERP&side=long&sort_by=pnl'))).toEqual(['P1', 'P7', 'P5']);
    expect(keysOf(await search(`market=ETH-PERP&address=${A}`))).toEqual(['P6']);
    expect(keysOf(await search('market=ETH-PERP&market_variant=SOL/USD[WSOL-USDC]'))).toEqual([]);
  });

  it('meta is over every matching row, not the page', async () => {
    for (let offset = 0; offset < 7; offset++) {
      const body = await search(`limit=1&offset=${offset}`);
      expect(body.meta).toEqual({ oldest_updated: iso(NOW - 8 * H), last_full_refresh: iso(NOW - 1.5 * H) });
    }
    // P4's poll snapshot is superseded by a later fill: SOL's last full refresh is P1's poll
    expect((await search('market=SOL-PERP&limit=1')).meta).toEqual({ oldest_updated: iso(NOW - 6 * H), last_full_refresh: iso(NOW - 2 * H) });
    expect((await search(`address=${A}&limit=1`)).meta).toEqual({ oldest_updated: iso(NOW - 5 * H), last_full_refresh: iso(NOW - 1.5 * H) });
    expect((await search('market=ETH-PERP&side=long')).meta).toEqual({ oldest_updated: iso(NOW - 8 * H), last_full_refresh: null });
    const past = await search('offset=10');
    expect(past).toEqual({ data: [], pagination: { limit: 500, offset: 10, total: 7 }, meta: { oldest_updated: iso(NOW - 8 * H), last_full_refresh: iso(NOW - 1.5 * H) } });
  });

  it('offset walk visits every row exactly once, in the order of the full list', async () => {
    for (const [sortBy, order] of [
      ['size', 'desc'],
      ['pnl', 'asc'],
      ['leverage', 'desc'],
      ['liq_proximity', 'asc'],
      ['collateral', 'asc'],
    ]) {
      const full = keysOf(await search(`sort_by=${sortBy}&order=${order}`));
      const seen: string[] = [];
      for (let offset = 0; offset < full.length + 2; offset += 2) {
        const body = await search(`sort_by=${sortBy}&order=${order}&limit=2&offset=${offset}`);
        expect(body.pagination).toEqual({ limit: 2, offset, total: full.length });
        seen.push(...keysOf(body));
      }
      expect(seen).toEqual(full);
      expect(new Set(seen).size).toBe(full.length);
    }
  });

  it.each([
    ['side=both', 'side'],
    ['min_size_usd=-1', 'min_size_usd'],
    ['min_size_usd=1e3', 'min_size_usd'],
    ['min_size_usd=abc', 'min_size_usd'],
    ['sort_by=size_usd', 'sort_by'],
    ['order=up', 'order'],
    ['address=not-an-address', 'address'],
    ['market=SOL', 'market'],
    ['market_variant=SOL-PERP', 'market_variant'],
    ['market=DOGE-PERP', 'market'],
    ['market_variant=DOGE/USD[USDC]', 'market_variant'],
    ['limit=0', 'limit'],
    ['limit=501', 'limit'],
    ['offset=-1', 'offset'],
  ])('400 invalid_parameter on %s', async (qs, param) => {
    const { status, body } = await json(`/v1/alpha/open-positions/search?${qs}`);
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 'invalid_parameter', param });
  });

  it('unknown parameter → 400 unknown_parameter; no key → 401', async () => {
    const { status, body } = await json('/v1/alpha/open-positions/search?sortby=size');
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 'unknown_parameter', param: 'sortby' });
    expect((await t.get('/v1/alpha/open-positions/search', null)).status).toBe(401);
  });
});

describe('17: GET /v1/alpha/open-positions/stats', () => {
  it('protocol-wide known answer', async () => {
    const s = await stats();
    expect(s).toEqual({
      market: null,
      snapshot_ts: iso(NOW - H),
      total_positions: 7,
      long_positions: 4,
      short_positions: 3,
      long_notional_usd: 3500,
      short_notional_usd: 6500,
      long_upnl_usd: 125,
      short_upnl_usd: -272.5,
      avg_leverage: expect.any(Number),
    });
    expect(s.avg_leverage).toBeCloseTo(62 / 7, 12);
  });

  it('per market: sums over its variants; known market without open positions → zeros, snapshot_ts null', async () => {
    expect(await stats('market=SOL-PERP')).toEqual({
      market: 'SOL-PERP',
      snapshot_ts: iso(NOW - H),
      total_positions: 5,
      long_positions: 3,
      short_positions: 2,
      long_notional_usd: 3000,
      short_notional_usd: 6000,
      long_upnl_usd: 100,
      short_upnl_usd: -260,
      avg_leverage: 11,
    });
    expect(await stats('market=eth-perp')).toEqual({
      market: 'ETH-PERP',
      snapshot_ts: iso(NOW - 1.5 * H),
      total_positions: 2,
      long_positions: 1,
      short_positions: 1,
      long_notional_usd: 500,
      short_notional_usd: 500,
      long_upnl_usd: 25,
      short_upnl_usd: -12.5,
      avg_leverage: 3.5,
    });
    expect(await stats('market=BTC-PERP')).toEqual({
      market: 'BTC-PERP',
      snapshot_ts: null,
      total_positions: 0,
      long_positions: 0,
      short_positions: 0,
      long_notional_usd: 0,
      short_notional_usd: 0,
      long_upnl_usd: 0,
      short_upnl_usd: 0,
      avg_leverage: 0,
    });
  });

  it('equals the aggregates of endpoint 16 rows for the same market', async () => {
    const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
    for (const market of [null, 'SOL-PERP', 'ETH-PERP', 'BTC-PERP']) {
      const qs = market === null ? '' : `market=${market}`;
      const rows: any[] = (await search(qs)).data;
      const s = await stats(qs);
      const side = (x: string) => rows.filter((r) => r.side === x);
      const sum = (rs: any[], f: string) => round6(rs.reduce((acc, r) => acc + r[f], 0));
      const times = rows.map((r) => r.updated_at).sort();
      expect(s, String(market)).toEqual({
        market,
        snapshot_ts: times.at(-1) ?? null,
        total_positions: rows.length,
        long_positions: side('long').length,
        short_positions: side('short').length,
        long_notional_usd: sum(side('long'), 'current_size_usd'),
        short_notional_usd: sum(side('short'), 'current_size_usd'),
        long_upnl_usd: sum(side('long'), 'unrealized_pnl_usd'),
        short_upnl_usd: sum(side('short'), 'unrealized_pnl_usd'),
        avg_leverage: expect.any(Number),
      });
      const lev = rows.map((r) => r.leverage);
      expect(s.avg_leverage).toBeCloseTo(lev.length ? lev.reduce((a, b) => a + b, 0) / lev.length : 0, 12);
    }
  });

  it.each([
    ['market=DOGE-PERP', 'invalid_parameter', 'market'],
    ['market=SOL', 'invalid_parameter', 'market'],
    ['market_variant=SOL/USD[WSOL-USDC]', 'unknown_parameter', 'market_variant'],
  ])('400 on %s', async (qs, code, param) => {
    const { status, body } = await json(`/v1/alpha/open-positions/stats?${qs}`);
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code, param });
  });
});
