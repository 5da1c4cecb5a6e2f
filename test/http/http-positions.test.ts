import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { at, fill, positionSnapshot } from '../helpers/fixtures.ts';
import { openTestApp, type TestApp } from '../helpers/app.ts';
import type { IncomingBatch, IncomingFill } from '../../server/journal/rows.ts';
import type { PlanName } from '../../server/keys/plans.ts';
import * as v from 'valibot';
import { positionRoutes } from '../../server/http/routes/positions.ts';

const NOW = at('2026-06-02T00:00:00Z');
const H = 3_600_000;
const D = 24 * H;
const A = 'AddrA111111111111111111111111111111111111111';
const B = 'AddrB111111111111111111111111111111111111111';
const Z = 'AddrZ111111111111111111111111111111111111111'; // never traded
const ETH = { market: 'ETH-PERP', market_variant: 'ETH/USD[USDC-USDC]' };
const BTC = { market: 'BTC-PERP', market_variant: 'BTC/USD[USDC-USDC]' };

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Address A (alpha):
 * P1 SOL long, closed: open 1,000 @100 (coll 100, fee 0.5) → increase +1,000 @110 (coll +50 → 150, fee 0.5,
 *    borrowing 0.2) → collateral edit +100 (increase, size 0) → collateral edit −50 (decrease, size 0)
 *    → partial decrease −500 @120 (pnl 70, coll −50, fee 0.25, funding 0.1) → close −1,500 @130 (pnl 350,
 *    fee 0.75, funding earned 0.3).
 *    entry (1000·100 + 1000·110)/2000 = 105; exit (500·120 + 1500·130)/2000 = 127.5; realized 420;
 *    fees 2; net = 420 − 2 − 0.2 − 0.1 + 0.3 = 418; max size 2,000, max collateral 250, max leverage 2000/150.
 * P2 ETH long, liquidated: open 500 @2,000 (coll 50, fee 0.5) at −3 d; liquidation at −2 d (pnl −45, fee 0.25,
 *    liquidation fee 2) → net −47.75, leverage 10.
 * P3 SOL short, closed, opened at −40 d (outside trial's 30 d): 3,000 on 100 → leverage 30; pnl +10 → net 9.
 * P6 BTC long, closed, opened at −3 d like P2 (tie), size 500 like P2 (tie): coll 100 → leverage 5; pnl −5 → net −6.
 * P4 SOL long, open, 800 @100 with a snapshot at −1 h (mark 105, liq 91) → uPnL 800·(105/100 − 1) = 40.
 * P5 SOL short, open, 200 @100 with a snapshot (mark 95) → uPnL 200·(95/100 − 1)·(−1) = 10.
 * Address B: P7 SOL long, closed. A also has a beta position (ignored).
 */
const P1: IncomingFill[] = [
  fill({
    time: NOW - 10 * D,
    position_key: 'P1',
    address: A,
    type: 'open',
    size_delta_usd: 1000,
    position_size_usd: 1000,
    collateral_delta_usd: 100,
    position_collateral_usd: 100,
    price: 100,
    entry_price: 100,
    fee_usd: 0.5,
    fee_total_usd: 0.5,
  }),
  fill({
    time: NOW - 9 * D,
    position_key: 'P1',
    address: A,
    type: 'increase',
    size_delta_usd: 1000,
    position_size_usd: 2000,
    collateral_delta_usd: 50,
    position_collateral_usd: 150,
    price: 110,
    entry_price: 105,
    fee_usd: 0.5,
    borrowing_fee_usd: 0.2,
    fee_total_usd: 0.7,
  }),
  fill({
    time: NOW - 8 * D,
    position_key: 'P1',
    address: A,
    type: 'increase',
    size_delta_usd: 0,
    position_size_usd: 2000,
    collateral_delta_usd: 100,
    position_collateral_usd: 250,
    price: 112,
    entry_price: 105,
    fee_usd: 0,
    fee_total_usd: 0,
  }),
  fill({
    time: NOW - 7.5 * D,
    position_key: 'P1',
    address: A,
    type: 'decrease',
    size_delta_usd: 0,
    position_size_usd: 2000,
    collateral_delta_usd: -50,
    position_collateral_usd: 200,
    price: 115,
    entry_price: 105,
    fee_usd: 0,
    fee_total_usd: 0,
  }),
  fill({
    time: NOW - 7 * D,
    position_key: 'P1',
    address: A,
    type: 'decrease',
    size_delta_usd: -500,
    position_size_usd: 1500,
    collateral_delta_usd: -50,
    position_collateral_usd: 150,
    price: 120,
    entry_price: 105,
    pnl_delta_usd: 70,
    fee_usd: 0.25,
    funding_fee_usd: 0.1,
    fee_total_usd: 0.35,
  }),
  fill({
    time: NOW - 6 * D,
    position_key: 'P1',
    address: A,
    type: 'close',
    size_delta_usd: -1500,
    position_size_usd: 0,
    collateral_delta_usd: -150,
    position_collateral_usd: 0,
    price: 130,
    entry_price: 105,
    pnl_delta_usd: 350,
    fee_usd: 0.75,
    funding_earned_usd: 0.3,
    fee_total_usd: 0.75,
  }),
];
const P2: IncomingFill[] = [
  fill({
    time: NOW - 3 * D,
    position_key: 'P2',
    address: A,
    ...ETH,
    size_delta_usd: 500,
    position_size_usd: 500,
    collateral_delta_usd: 50,
    position_collateral_usd: 50,
    price: 2000,
    entry_price: 2000,
    index_price: 2000,
  }),
  fill({
    time: NOW - 2 * D,
    position_key: 'P2',
    address: A,
    ...ETH,
    type: 'liquidation',
    size_delta_usd: -500,
    position_size_usd: 0,
    collateral_delta_usd: -50,
    position_collateral_usd: 0,
    price: 1820,
    entry_price: 2000,
    pnl_delta_usd: -45,
    fee_usd: 0.25,
    liquidation_fee_usd: 2,
    fee_total_usd: 2.25,
    index_price: 1820,
  }),
];
const P3: IncomingFill[] = [
  fill({ time: NOW - 40 * D, position_key: 'P3', address: A, side: 'short', size_delta_usd: 3000, position_size_usd: 3000 }),
  fill({
    time: NOW - 35 * D,
    position_key: 'P3',
    address: A,
    side: 'short',
    type: 'close',
    size_delta_usd: -3000,
    position_size_usd: 0,
    collateral_delta_usd: -100,
    position_collateral_usd: 0,
    price: 99.6,
    pnl_delta_usd: 10,
  }),
];
const P6: IncomingFill[] = [
  fill({ time: NOW - 3 * D, position_key: 'P6', address: A, ...BTC, size_delta_usd: 500, position_size_usd: 500 }),
  fill({
    time: NOW - 1 * D,
    position_key: 'P6',
    address: A,
    ...BTC,
    type: 'close',
    size_delta_usd: -500,
    position_size_usd: 0,
    collateral_delta_usd: -100,
    position_collateral_usd: 0,
    pnl_delta_usd: -5,
  }),
];
const P4: IncomingFill[] = [fill({ time: NOW - 1 * D, position_key: 'P4', address: A, size_delta_usd: 800, position_size_usd: 800, collateral_delta_usd: 80, position_collateral_usd: 80 })];
const P5: IncomingFill[] = [
  fill({ time: NOW - 20 * H, position_key: 'P5', address: A, side: 'short', size_delta_usd: 200, position_size_usd: 200, collateral_delta_usd: 40, position_collateral_usd: 40 }),
];
/** P8 SOL long, open, no snapshot: live fields from its last fill (index price 102 as mark). */
const P8: IncomingFill[] = [fill({ time: NOW - 10 * H, position_key: 'P8', address: A, index_price: 102 })];
const P7: IncomingFill[] = [
  fill({ time: NOW - 5 * D, position_key: 'P7', address: B }),
  fill({ time: NOW - 4 * D, position_key: 'P7', address: B, type: 'close', size_delta_usd: -1000, position_size_usd: 0, collateral_delta_usd: -100, position_collateral_usd: 0, pnl_delta_usd: 1 }),
];
const BETA = fill({ time: NOW - 2 * H, protocol: 'beta', position_key: 'AB', address: A, market_variant: null });

function journal(): IncomingBatch {
  const fills = [...P1, ...P2, ...P3, ...P6, ...P4, ...P5, ...P8, ...P7, BETA].sort((x, y) => x.time - y.time);
  return {
    fills,
    marketSnapshots: [],
    positionSnapshots: [
      positionSnapshot({
        time: NOW - H,
        position_key: 'P4',
        size_usd: 800,
        collateral_usd: 79.5,
        unsettled_borrowing_usd: 0.12,
        unsettled_funding_usd: 0.03,
        claimable_funding_usd: 0.01,
        mark_price: 105,
        liquidation_price: 91,
      }),
      positionSnapshot({ time: NOW - H, position_key: 'P5', size_usd: 200, collateral_usd: 40, mark_price: 95, liquidation_price: null }),
    ],
  };
}

let t: TestApp;
/** position_id of each lifecycle, by name (ids are assigned at append). */
const id: Record<string, number> = {};
beforeAll(async () => {
  t = await openTestApp({ now: NOW, batches: [journal()] });
  const opens: Record<string, IncomingFill> = {
    P1: P1[0]!,
    P2: P2[0]!,
    P3: P3[0]!,
    P4: P4[0]!,
    P5: P5[0]!,
    P8: P8[0]!,
    P6: P6[0]!,
    P7: P7[0]!,
  };
  const rows = await t.service.db.querySql("SELECT position_id, open_tx FROM lifecycles WHERE protocol = 'alpha'");
  for (const [name, f] of Object.entries(opens)) {
    const row = rows.find((r) => r.open_tx === f.tx);
    if (!row) throw new Error(`no lifecycle for ${name}`);
    id[name] = row.position_id as number;
  }
  // A's beta lifecycle: `GET /v1/alpha/positions/{address}/{id}` and
  // `GET /v1/alpha/positions/{address}/{id}/lifecycle` read a lifecycle by id alone, then check
  // protocol and address
  const beta = await t.service.db.querySql("SELECT position_id FROM lifecycles WHERE protocol = 'beta'");
  expect(beta).toHaveLength(1);
  id.BETA = beta[0]!.position_id as number;
});
afterAll(async () => {
  await t?.close();
});

async function json(path: string, plan: PlanName = 'premium') {
  const res = await t.get(path, plan);
  return { status: res.status, body: (await res.json()) as any };
}
const ids = (body: any) => body.data.map((r: any) => r.position_id);
const names = (...ns: string[]) => ns.map((n) => id[n]);
/** P2 and P6 tie on opened_at and max size: position_id desc decides. */
const tie = () => (id.P2! > id.P6! ? names('P2', 'P6') : names('P6', 'P2'));

describe('15: GET /v1/alpha/accounts/:address/history', () => {
  it('default: closed and liquidated only, opened_at desc then position_id desc; History-row fields', async () => {
    const { status, body } = await json(`/v1/alpha/accounts/${A}/history`);
    expect(status).toBe(200);
    expect(ids(body)).toEqual([...tie(), id.P1, id.P3]);
    expect(body.pagination).toEqual({ limit: 500, offset: 0, total: 4 });
    const p1 = body.data.find((r: any) => r.position_id === id.P1);
    expect(p1).toEqual({
      protocol: 'alpha',
      position_id: id.P1,
      market_variant: 'SOL/USD[WSOL-USDC]',
      market: 'SOL-PERP',
      address: A,
      side: 'long',
      max_size_usd: 2000,
      max_collateral_usd: 250,
      entry_price: 105,
      opened_at: iso(NOW - 10 * D),
      status: 'closed',
      closed_at: iso(NOW - 6 * D),
      exit_price: 127.5,
      max_leverage: 2000 / 150,
      realized_pnl_usd: 420,
      fees_usd: 2,
      liquidation_fees_usd: 0,
      funding_fees_usd: 0.1,
      borrowing_fees_usd: 0.2,
      funding_earned_usd: 0.3,
      net_pnl_usd: 418,
      fill_count: 6,
      open_tx: P1[0]!.tx,
      close_tx: P1[5]!.tx,
    });
    const p2 = body.data.find((r: any) => r.position_id === id.P2);
    expect(p2).toMatchObject({ status: 'liquidated', exit_price: 1820, realized_pnl_usd: -45, fees_usd: 0.75, liquidation_fees_usd: 2, net_pnl_usd: -47.75, max_leverage: 10, close_tx: P2[1]!.tx });
  });

  it.each([
    ['opened_at', 'desc', () => [...tie(), id.P1, id.P3]],
    ['opened_at', 'asc', () => [id.P3, id.P1, ...tie()]],
    ['closed_at', 'desc', () => names('P6', 'P2', 'P1', 'P3')],
    ['closed_at', 'asc', () => names('P3', 'P1', 'P2', 'P6')],
    ['size', 'desc', () => [id.P3, id.P1, ...tie()]],
    ['size', 'asc', () => [...tie(), id.P1, id.P3]],
    ['pnl', 'desc', () => names('P1', 'P3', 'P6', 'P2')],
    ['pnl', 'asc', () => names('P2', 'P6', 'P3', 'P1')],
    ['leverage', 'desc', () => names('P3', 'P1', 'P2', 'P6')],
    ['leverage', 'asc', () => names('P6', 'P2', 'P1', 'P3')],
  ])('sort_by=%s order=%s', async (sortBy, order, expected) => {
    const { status, body } = await json(`/v1/alpha/accounts/${A}/history?sort_by=${sortBy}&order=${order}`);
    expect(status).toBe(200);
    expect(ids(body)).toEqual(expected());
  });

  it('filters: market (all variants, any case) and market_variant', async () => {
    expect(ids((await json(`/v1/alpha/accounts/${A}/history?market=SOL-PERP`)).body)).toEqual(names('P1', 'P3'));
    expect(ids((await json(`/v1/alpha/accounts/${A}/history?market=sol-perp`)).body)).toEqual(names('P1', 'P3'));
    const eth = await json(`/v1/alpha/accounts/${A}/history?market_variant=${encodeURIComponent(ETH.market_variant)}`);
    expect(ids(eth.body)).toEqual(names('P2'));
    expect(eth.body.pagination.total).toBe(1);
    const none = await json(`/v1/alpha/accounts/${A}/history?market=DOGE-PERP`);
    expect(none).toEqual({ status: 200, body: { data: [], pagination: { limit: 500, offset: 0, total: 0 } } });
  });

  it('plan depth: trial (30 d) omits the lifecycle opened 40 days ago; premium and internal see it', async () => {
    const trial = await json(`/v1/alpha/accounts/${A}/history`, 'trial');
    expect(ids(trial.body)).toEqual([...tie(), id.P1]);
    expect(trial.body.pagination.total).toBe(3);
    expect(ids((await json(`/v1/alpha/accounts/${A}/history`, 'pro')).body)).toContain(id.P3);
    expect(ids((await json(`/v1/alpha/accounts/${A}/history`, 'internal')).body)).toContain(id.P3);
  });

  it('offset walk visits every row once', async () => {
    for (const sortBy of ['opened_at', 'size', 'pnl']) {
      const seen: number[] = [];
      for (let offset = 0; offset < 6; offset += 1) {
        const { body } = await json(`/v1/alpha/accounts/${A}/history?sort_by=${sortBy}&limit=1&offset=${offset}`);
        expect(body.pagination).toEqual({ limit: 1, offset, total: 4 });
        seen.push(...ids(body));
      }
      expect(seen).toEqual(ids((await json(`/v1/alpha/accounts/${A}/history?sort_by=${sortBy}`)).body));
      expect(new Set(seen).size).toBe(4);
    }
  });

  it('404 for an unknown, malformed or wrong-case address; an account with only open positions is 200 empty', async () => {
    for (const addr of [Z, 'not-an-address', A.toLowerCase(), 'x'.repeat(60)]) {
      const { status, body } = await json(`/v1/alpha/accounts/${addr}/history`);
      expect(status, addr).toBe(404);
      expect(body.error.code).toBe('not_found');
    }
    expect(ids((await json(`/v1/alpha/accounts/${B}/history`)).body)).toEqual(names('P7'));
  });

  it.each([
    ['sort_by=size_usd', 'sort_by'],
    ['order=up', 'order'],
    ['limit=0', 'limit'],
    ['limit=501', 'limit'],
    ['offset=-1', 'offset'],
    ['market=SOL', 'market'],
  ])('400 invalid_parameter on %s', async (qs, param) => {
    const { status, body } = await json(`/v1/alpha/accounts/${A}/history?${qs}`);
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 'invalid_parameter', param });
  });

  it('unknown parameter → 400', async () => {
    const { status, body } = await json(`/v1/alpha/accounts/${A}/history?status=open`);
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 'unknown_parameter', param: 'status' });
  });
});

describe('18: GET /v1/alpha/positions/:address/:id', () => {
  it('closed lifecycle: every Detail field, live fields null', async () => {
    const { status, body } = await json(`/v1/alpha/positions/${A}/${id.P1}`);
    expect(status).toBe(200);
    expect(body).toEqual({
      data: {
        protocol: 'alpha',
        position_id: id.P1,
        market_variant: 'SOL/USD[WSOL-USDC]',
        market: 'SOL-PERP',
        address: A,
        side: 'long',
        current_size_usd: null,
        max_size_usd: 2000,
        current_collateral_usd: null,
        max_collateral_usd: 250,
        unsettled_borrowing_usd: null,
        unsettled_funding_usd: null,
        claimable_funding_usd: null,
        entry_price: 105,
        opened_at: iso(NOW - 10 * D),
        status: 'closed',
        closed_at: iso(NOW - 6 * D),
        exit_price: 127.5,
        max_leverage: 2000 / 150,
        realized_pnl_usd: 420,
        fees_usd: 2,
        liquidation_fees_usd: 0,
        funding_fees_usd: 0.1,
        borrowing_fees_usd: 0.2,
        funding_earned_usd: 0.3,
        net_pnl_usd: 418,
        fill_count: 6,
        open_tx: P1[0]!.tx,
        close_tx: P1[5]!.tx,
        mark_price: null,
        unrealized_pnl_usd: null,
        liquidation_price: null,
        updated_at: null,
      },
    });
  });

  it('open long: live fields from the latest snapshot', async () => {
    const { status, body } = await json(`/v1/alpha/positions/${A}/${id.P4}`);
    expect(status).toBe(200);
    expect(body.data).toMatchObject({
      status: 'open',
      closed_at: null,
      close_tx: null,
      exit_price: null,
      entry_price: 100,
      max_size_usd: 800,
      current_size_usd: 800,
      current_collateral_usd: 79.5,
      unsettled_borrowing_usd: 0.12,
      unsettled_funding_usd: 0.03,
      claimable_funding_usd: 0.01,
      mark_price: 105,
      unrealized_pnl_usd: 40,
      liquidation_price: 91,
      updated_at: iso(NOW - H),
      fill_count: 1,
    });
  });

  it('open short: unrealized PnL sign-flipped; liquidation price null when unknown', async () => {
    const { body } = await json(`/v1/alpha/positions/${A}/${id.P5}`);
    expect(body.data).toMatchObject({ side: 'short', status: 'open', current_size_usd: 200, mark_price: 95, unrealized_pnl_usd: 10, liquidation_price: null });
  });

  it('open without any snapshot: the state after its last fill (no unsettled charges, no liquidation price)', async () => {
    const { body } = await json(`/v1/alpha/positions/${A}/${id.P8}`);
    expect(body.data).toMatchObject({
      status: 'open',
      current_size_usd: 1000,
      current_collateral_usd: 100,
      unsettled_borrowing_usd: 0,
      unsettled_funding_usd: 0,
      claimable_funding_usd: 0,
      mark_price: 102,
      unrealized_pnl_usd: 20,
      liquidation_price: null,
      updated_at: iso(NOW - 10 * H),
    });
  });

  it('liquidated lifecycle: status liquidated, live fields null', async () => {
    const { body } = await json(`/v1/alpha/positions/${A}/${id.P2}`);
    expect(body.data).toMatchObject({ status: 'liquidated', current_size_usd: null, mark_price: null, unrealized_pnl_usd: null, updated_at: null, liquidation_fees_usd: 2 });
  });

  it("404: another address's id, a beta id of the same address, unknown id, non-integer id, malformed or unknown address", async () => {
    for (const path of [
      `${B}/${id.P1}`,
      `${A}/${id.P7}`,
      `${A}/${id.BETA}`,
      `${A}/999999`,
      `${A}/abc`,
      `${A}/1.5`,
      `${A}/-1`,
      `${A}/${'9'.repeat(30)}`,
      `not-an-address/${id.P1}`,
      `${Z}/${id.P1}`,
      `${A.toLowerCase()}/${id.P1}`,
    ]) {
      const { status, body } = await json(`/v1/alpha/positions/${path}`);
      expect(status, path).toBe(404);
      expect(body.error.code).toBe('not_found');
    }
  });
});

describe('19: GET /v1/alpha/positions/:address/:id/lifecycle', () => {
  const base = () => `/v1/alpha/positions/${A}/${id.P1}/lifecycle`;
  const txs = (body: any) => body.data.map((e: any) => e.tx);
  const tx = (...i: number[]) => i.map((k) => P1[k]!.tx);

  it('default: chronological, collateral-only events hidden; PositionEvent fields', async () => {
    const { status, body } = await json(base());
    expect(status).toBe(200);
    expect(txs(body)).toEqual(tx(0, 1, 4, 5));
    expect(body.pagination).toEqual({ limit: 500, offset: 0, total: 4 });
    expect(body.data[1]).toEqual({
      time: iso(NOW - 9 * D),
      type: 'increase',
      size_delta_usd: 1000,
      position_size_usd: 2000,
      collateral_delta_usd: 50,
      price: 110,
      entry_price: 105,
      pnl_delta_usd: 0,
      fee_usd: 0.5,
      borrowing_fee_usd: 0.2,
      funding_fee_usd: null,
      liquidation_fee_usd: null,
      fee_total_usd: 0.7,
      tx: P1[1]!.tx,
    });
    expect(body.data[2]).toMatchObject({ type: 'decrease', size_delta_usd: -500, pnl_delta_usd: 70, funding_fee_usd: 0.1 });
  });

  it('include_collateral_events=true shows the collateral-only edits as increase/decrease', async () => {
    const { body } = await json(`${base()}?include_collateral_events=true`);
    expect(txs(body)).toEqual(tx(0, 1, 2, 3, 4, 5));
    expect(body.data.map((e: any) => e.type)).toEqual(['open', 'increase', 'increase', 'decrease', 'decrease', 'close']);
    expect(body.data[2]).toMatchObject({ size_delta_usd: 0, collateral_delta_usd: 100 });
    expect(body.data[3]).toMatchObject({ size_delta_usd: 0, collateral_delta_usd: -50 });
    expect(body.data.reduce((s: number, e: any) => s + e.size_delta_usd, 0)).toBe(0);
    expect((await json(`${base()}?include_collateral_events=false`)).body.pagination.total).toBe(4);
  });

  it.each([
    ['time', 'asc', false, [0, 1, 4, 5]],
    ['time', 'desc', false, [5, 4, 1, 0]],
    ['time', 'desc', true, [5, 4, 3, 2, 1, 0]],
    ['size', 'asc', false, [4, 0, 1, 5]],
    ['size', 'desc', false, [5, 1, 0, 4]],
    ['size', 'asc', true, [2, 3, 4, 0, 1, 5]],
    ['size', 'desc', true, [5, 1, 0, 4, 3, 2]],
  ])('sort_by=%s order=%s include_collateral_events=%s', async (sortBy, order, all, expected) => {
    const { body } = await json(`${base()}?sort_by=${sortBy}&order=${order}&include_collateral_events=${all}`);
    expect(txs(body)).toEqual(tx(...expected));
  });

  it('type partitions the timeline: the five types union to it with no overlap', async () => {
    const all = txs((await json(`${base()}?include_collateral_events=true`)).body);
    const parts: Record<string, string[]> = {};
    for (const type of ['open', 'increase', 'decrease', 'close', 'liquidation']) {
      const { status, body } = await json(`${base()}?type=${type}&include_collateral_events=true`);
      expect(status).toBe(200);
      expect(body.data.every((e: any) => e.type === type)).toBe(true);
      parts[type] = txs(body);
    }
    expect(parts).toEqual({ open: tx(0), increase: tx(1, 2), decrease: tx(3, 4), close: tx(5), liquidation: [] });
    const union = Object.values(parts).flat();
    expect(union.length).toBe(all.length);
    expect(new Set(union)).toEqual(new Set(all));
    // default hides the collateral-only ones inside a type too
    expect(txs((await json(`${base()}?type=increase`)).body)).toEqual(tx(1));
  });

  it('liquidation events are always included', async () => {
    const { body } = await json(`/v1/alpha/positions/${A}/${id.P2}/lifecycle?type=liquidation`);
    expect(body.data).toEqual([
      expect.objectContaining({ type: 'liquidation', size_delta_usd: -500, liquidation_fee_usd: 2, fee_usd: 0.25, fee_total_usd: 2.25, pnl_delta_usd: -45, price: 1820, tx: P2[1]!.tx }),
    ]);
  });

  it('offset walk visits every event once', async () => {
    for (const qs of ['include_collateral_events=true', 'include_collateral_events=true&sort_by=size&order=desc']) {
      const seen: string[] = [];
      for (let offset = 0; offset < 8; offset += 2) {
        const { body } = await json(`${base()}?${qs}&limit=2&offset=${offset}`);
        expect(body.pagination).toEqual({ limit: 2, offset, total: 6 });
        seen.push(...txs(body));
      }
      expect(seen).toEqual(txs((await json(`${base()}?${qs}`)).body));
      expect(new Set(seen).size).toBe(6);
    }
  });

  it("404: another address's id, a beta id of the same address, unknown id, malformed id or address", async () => {
    for (const path of [`${B}/${id.P1}`, `${A}/${id.P7}`, `${A}/${id.BETA}`, `${A}/999999`, `${A}/abc`, `bad/${id.P1}`, `${Z}/${id.P1}`]) {
      const { status, body } = await json(`/v1/alpha/positions/${path}/lifecycle`);
      expect(status, path).toBe(404);
      expect(body.error.code).toBe('not_found');
    }
  });

  it.each([
    ['type=liquidated', 'type'],
    ['sort_by=price', 'sort_by'],
    ['order=up', 'order'],
    ['include_collateral_events=1', 'include_collateral_events'],
    ['limit=501', 'limit'],
  ])('400 invalid_parameter on %s', async (qs, param) => {
    const { status, body } = await json(`${base()}?${qs}`);
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 'invalid_parameter', param });
  });
});

describe('response schemas', () => {
  it('every route has one, and real answers (open, closed, liquidated, empty) conform to it', async () => {
    const routes = positionRoutes(t.service);
    const schema = (suffix: string) => {
      const r = routes.find((x) => x.path.endsWith(suffix));
      if (!r?.response) throw new Error(`no response schema for ${suffix}`);
      return r.response;
    };
    const paths: [string, string][] = [
      ['/history', `/v1/alpha/accounts/${A}/history`],
      ['/history', `/v1/alpha/accounts/${A}/history?market=DOGE-PERP`],
      ['/:id', `/v1/alpha/positions/${A}/${id.P1}`],
      ['/:id', `/v1/alpha/positions/${A}/${id.P2}`],
      ['/:id', `/v1/alpha/positions/${A}/${id.P4}`],
      ['/:id', `/v1/alpha/positions/${A}/${id.P8}`],
      ['/lifecycle', `/v1/alpha/positions/${A}/${id.P1}/lifecycle?include_collateral_events=true`],
      ['/lifecycle', `/v1/alpha/positions/${A}/${id.P2}/lifecycle`],
    ];
    for (const [suffix, path] of paths) {
      const { status, body } = await json(path);
      expect(status, path).toBe(200);
      const result = v.safeParse(schema(suffix), body);
      expect(result.success, `${path}: ${JSON.stringify(result.issues?.[0]?.message)}`).toBe(true);
    }
  });
});
