import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { at, fill, marketSnapshot } from '../helpers/fixtures.ts';
import { openTestApp, type TestApp } from '../helpers/app.ts';
import type { PlanName } from '../../server/keys/plans.ts';
import type { IncomingBatch, IncomingFill } from '../../server/journal/rows.ts';

const NOW = at('2026-06-02T00:00:00Z');
const H = 3_600_000;
const DAY = 24 * H;
const ADDR = 'AddrL111111111111111111111111111111111111111';
const WSOL = 'SOL/USD[WSOL-USDC]';
const USOL = 'SOL/USD[USDC-USDC]';
const BTC = 'BTC/USD[USDC-USDC]';

interface Liq {
  name: string;
  ago: number;
  variant: string;
}
/** Liquidations in journal (seq) order; L2, L3, L4 share one time, so seq breaks the tie (L4 first). */
const LIQS: Liq[] = [
  { name: 'L9', ago: 40 * DAY, variant: WSOL },
  { name: 'L8', ago: 10 * DAY, variant: BTC },
  { name: 'L7', ago: 8 * DAY, variant: USOL },
  { name: 'L6', ago: 6 * DAY, variant: WSOL },
  { name: 'L5', ago: 3 * DAY, variant: BTC },
  { name: 'L2', ago: 2 * H, variant: USOL },
  { name: 'L3', ago: 2 * H, variant: BTC },
  { name: 'L4', ago: 2 * H, variant: WSOL },
  { name: 'L1', ago: 1 * H, variant: WSOL },
];
const NEWEST_FIRST = ['L1', 'L4', 'L3', 'L2', 'L5', 'L6', 'L7', 'L8', 'L9'];

const marketOf = (variant: string) => (variant.startsWith('BTC') ? 'BTC-PERP' : 'SOL-PERP');

/**
 * Each liquidated lifecycle (position key = its name) opens 45 days ago: short 1,000 × (index),
 * collateral 100; the liquidation closes it at price 120 with pnl −(90 + index), fee 1, liquidation
 * fee 5 + index; its tx is `tx-<name>`. One batch of opens, then one batch per liquidation, so seq
 * follows LIQS order. Plus a beta liquidation and an alpha close (neither listed).
 */
function batches(): IncomingBatch[] {
  const opens: IncomingFill[] = LIQS.map((l, i) =>
    fill({
      time: NOW - 45 * DAY + i * 60_000,
      position_key: l.name,
      address: ADDR,
      market: marketOf(l.variant),
      market_variant: l.variant,
      side: 'short',
      size_delta_usd: 1000 * (i + 1),
      position_size_usd: 1000 * (i + 1),
      collateral_delta_usd: 100,
      position_collateral_usd: 100,
      price: 100,
      entry_price: 100,
    }),
  );
  opens.push(
    fill({ time: NOW - 45 * DAY, protocol: 'beta', position_key: 'BETA', address: ADDR, market: 'SOL-PERP', market_variant: null }),
    fill({ time: NOW - 45 * DAY, position_key: 'CLOSED', address: ADDR }),
  );
  const out: IncomingBatch[] = [{ fills: opens, marketSnapshots: [], positionSnapshots: [] }];
  LIQS.forEach((l, i) =>
    out.push({
      fills: [
        fill({
          time: NOW - l.ago,
          tx: `tx-${l.name}`,
          position_key: l.name,
          address: ADDR,
          market: marketOf(l.variant),
          market_variant: l.variant,
          side: 'short',
          type: 'liquidation',
          size_delta_usd: -1000 * (i + 1),
          position_size_usd: 0,
          collateral_delta_usd: -100,
          position_collateral_usd: 0,
          price: 120,
          entry_price: 100,
          pnl_delta_usd: -(90 + i + 1),
          fee_usd: 1,
          liquidation_fee_usd: 5 + i + 1,
          fee_total_usd: 6 + i + 1,
        }),
      ],
      marketSnapshots: [],
      positionSnapshots: [],
    }),
  );
  out.push({
    fills: [
      fill({
        time: NOW - 30 * 60_000,
        protocol: 'beta',
        position_key: 'BETA',
        address: ADDR,
        market: 'SOL-PERP',
        market_variant: null,
        type: 'liquidation',
        size_delta_usd: -1000,
        position_size_usd: 0,
        collateral_delta_usd: -100,
        position_collateral_usd: 0,
      }),
      fill({ time: NOW - 30 * 60_000, position_key: 'CLOSED', address: ADDR, type: 'close', size_delta_usd: -1000, position_size_usd: 0, collateral_delta_usd: -100, position_collateral_usd: 0 }),
    ],
    marketSnapshots: [
      marketSnapshot({ time: NOW - 10 * 60_000, market_variant: WSOL, oi_long_usd: 1, oi_short_usd: 2, funding_rate_long: 0.9, funding_rate_short: 0.9 }),
      marketSnapshot({ time: NOW - 5 * 60_000, market_variant: WSOL, oi_long_usd: 1200.5, oi_short_usd: 300.25, funding_rate_long: 0.0000123, funding_rate_short: -0.0000456 }),
      marketSnapshot({ time: NOW - 5 * 60_000, market_variant: USOL, oi_long_usd: 400.123456, oi_short_usd: 0, funding_rate_long: 0.00001, funding_rate_short: -0.00002 }),
      marketSnapshot({ time: NOW - 7 * 60_000, market: 'BTC-PERP', market_variant: BTC, oi_long_usd: 5000, oi_short_usd: 2500, funding_rate_long: -0.00003, funding_rate_short: 0.00001 }),
      marketSnapshot({ time: NOW - 5 * 60_000, protocol: 'beta', market_variant: null, oi_long_usd: 99, oi_short_usd: 99 }),
    ],
    positionSnapshots: [],
  });
  return out;
}

let t: TestApp;
let txToName: Map<string, string>;
beforeAll(async () => {
  t = await openTestApp({ now: NOW, batches: batches() });
  txToName = new Map(LIQS.map((l) => [`tx-${l.name}`, l.name]));
});
afterAll(async () => {
  await t?.close();
});

async function json(path: string, plan: PlanName = 'premium') {
  const res = await t.get(path, plan);
  return { status: res.status, body: (await res.json()) as any };
}
const names = (body: any): string[] => body.data.map((r: any) => txToName.get(r.tx) ?? r.tx);

/** Follows next_cursor from `first` to the end; returns the names per page. */
async function walk(first: string, plan: PlanName = 'premium', limit?: number): Promise<string[][]> {
  const pages: string[][] = [];
  let { body } = await json(first, plan);
  pages.push(names(body));
  while (body.next_cursor !== null) {
    expect(typeof body.next_cursor).toBe('string');
    expect(body.next_cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    const res = await json(`/v1/alpha/liquidations/search?cursor=${body.next_cursor}${limit ? `&limit=${limit}` : ''}`, plan);
    expect(res.status).toBe(200);
    body = res.body;
    pages.push(names(body));
    if (pages.length > 20) throw new Error('runaway walk');
  }
  return pages;
}

const PATH = '/v1/alpha/liquidations/search';

describe('5: GET /v1/alpha/liquidations/search', () => {
  it('one page by default (premium): alpha liquidations only, time desc then seq desc', async () => {
    const { status, body } = await json(PATH);
    expect(status).toBe(200);
    expect(names(body)).toEqual(NEWEST_FIRST);
    expect(body.next_cursor).toBeNull();
  });

  it('a liquidation record has exactly the contract §5 fields', async () => {
    const { body } = await json(PATH);
    const l3 = body.data.find((r: any) => r.tx === 'tx-L3');
    // L3 is LIQS[6]: size 7,000, pnl −97, liquidation fee 12
    expect(l3).toEqual({
      time: '2026-06-01T22:00:00.000Z',
      position_id: l3.position_id,
      protocol: 'alpha',
      market: 'BTC-PERP',
      market_variant: BTC,
      address: ADDR,
      side: 'short',
      size_usd: 7000,
      collateral_usd: 100,
      price: 120,
      entry_price: 100,
      pnl_usd: -97,
      liquidation_fee_usd: 12,
      tx: 'tx-L3',
    });
    expect(Number.isInteger(l3.position_id)).toBe(true);
    const ids = body.data.map((r: any) => r.position_id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('cursor walk visits every liquidation exactly once (premium, limit 2)', async () => {
    const pages = await walk(`${PATH}?limit=2`, 'premium', 2);
    expect(pages).toEqual([['L1', 'L4'], ['L3', 'L2'], ['L5', 'L6'], ['L7', 'L8'], ['L9']]);
    expect(pages.flat()).toEqual(NEWEST_FIRST);
  });

  it('a full last page (exactly limit rows left) has next_cursor null', async () => {
    const pages = await walk(`${PATH}?limit=3`, 'premium', 3);
    expect(pages).toEqual([
      ['L1', 'L4', 'L3'],
      ['L2', 'L5', 'L6'],
      ['L7', 'L8', 'L9'],
    ]);
  });

  it('lookback per plan: trial stops at 7 days (page ends early, next_cursor null); others further', async () => {
    const trial = await walk(`${PATH}?limit=4`, 'trial', 4);
    expect(trial).toEqual([
      ['L1', 'L4', 'L3', 'L2'],
      ['L5', 'L6'],
    ]);
    expect((await json(PATH, 'trial')).body.next_cursor).toBeNull();
    expect((await walk(PATH, 'starter')).flat()).toEqual(NEWEST_FIRST.slice(0, 8));
    expect((await walk(PATH, 'pro')).flat()).toEqual(NEWEST_FIRST);
    expect(await walk(`${PATH}?limit=4`, 'premium', 4)).toEqual([['L1', 'L4', 'L3', 'L2'], ['L5', 'L6', 'L7', 'L8'], ['L9']]);
    // a from before the floor is clamped to it
    expect(names((await json(`${PATH}?from=2026-01-01`, 'trial')).body)).toEqual(NEWEST_FIRST.slice(0, 6));
  });

  it('filters: market (every variant), market_variant, from (inclusive), to (exclusive)', async () => {
    expect(names((await json(`${PATH}?market=sol-perp`)).body)).toEqual(['L1', 'L4', 'L2', 'L6', 'L7', 'L9']);
    expect(names((await json(`${PATH}?market=BTC-PERP`)).body)).toEqual(['L3', 'L5', 'L8']);
    expect(names((await json(`${PATH}?market_variant=${encodeURIComponent(USOL)}`)).body)).toEqual(['L2', 'L7']);
    expect(names((await json(`${PATH}?market=SOL-PERP&market_variant=${encodeURIComponent(BTC)}`)).body)).toEqual([]);
    expect(names((await json(`${PATH}?market=DOGE-PERP`)).body)).toEqual([]);
    expect(names((await json(`${PATH}?from=2026-05-24T00:00:00Z&to=2026-06-01T22:00:00Z`)).body)).toEqual(['L5', 'L6', 'L7']);
    expect(names((await json(`${PATH}?from=2026-06-01T22:00:00Z&to=2026-06-01T23:00:00.001Z`)).body)).toEqual(['L1', 'L4', 'L3', 'L2']);
  });

  it('a cursor carries its filters: the walk stays filtered with the cursor alone or with the same filters', async () => {
    const pages = await walk(`${PATH}?market=SOL-PERP&limit=4`, 'premium', 4);
    expect(pages).toEqual([
      ['L1', 'L4', 'L2', 'L6'],
      ['L7', 'L9'],
    ]);
    const first = await json(`${PATH}?market=SOL-PERP&limit=4`);
    const same = await json(`${PATH}?market=SOL-PERP&limit=4&cursor=${first.body.next_cursor}`);
    expect(same.status).toBe(200);
    expect(names(same.body)).toEqual(['L7', 'L9']);
    const windowed = await walk(`${PATH}?from=2026-05-20&to=2026-06-01T23:00:00Z&limit=2`, 'premium', 2);
    expect(windowed).toEqual([['L4', 'L3'], ['L2', 'L5'], ['L6', 'L7'], ['L8']]);
  });

  it('a cursor with other filters, or a malformed one, is 400 invalid_parameter on cursor', async () => {
    const first = await json(`${PATH}?market=SOL-PERP&limit=2`);
    const cursor = first.body.next_cursor as string;
    for (const extra of ['market=BTC-PERP', `market_variant=${encodeURIComponent(WSOL)}`, 'from=2026-05-01', 'to=2026-06-01']) {
      const { status, body } = await json(`${PATH}?cursor=${cursor}&${extra}`);
      expect(status, extra).toBe(400);
      expect(body.error).toMatchObject({ code: 'invalid_parameter', param: 'cursor' });
    }
    const tampered = Buffer.from(JSON.stringify({ v: 1, t: 'x', s: 1, f: [null, null, null, null] })).toString('base64url');
    for (const bad of ['abc', 'not%20base64!', tampered, Buffer.from('{"v":2}').toString('base64url')]) {
      const { status, body } = await json(`${PATH}?cursor=${bad}`);
      expect(status, bad).toBe(400);
      expect(body.error).toMatchObject({ code: 'invalid_parameter', param: 'cursor' });
    }
  });

  it('validation: epoch from, from >= to, bad market, limit, unknown parameter', async () => {
    const epoch = await json(`${PATH}?from=1748736000000`);
    expect(epoch.status).toBe(400);
    expect(epoch.body.error).toMatchObject({ code: 'invalid_parameter', param: 'from' });
    expect(epoch.body.error.message).toMatch(/RFC 3339/);
    expect((await json(`${PATH}?from=2026-06-01&to=2026-06-01`)).body.error).toMatchObject({ code: 'invalid_parameter', param: 'from' });
    expect((await json(`${PATH}?market=SOL`)).body.error).toMatchObject({ code: 'invalid_parameter', param: 'market' });
    expect((await json(`${PATH}?limit=501`)).body.error).toMatchObject({ code: 'invalid_parameter', param: 'limit' });
    expect((await json(`${PATH}?page=2`)).body.error).toMatchObject({ code: 'unknown_parameter', param: 'page' });
  });
});

describe('7, 10: current open interest and funding rates', () => {
  it('7: latest snapshot per alpha variant', async () => {
    const { status, body } = await json('/v1/alpha/open-interest', 'trial');
    expect(status).toBe(200);
    expect(body).toEqual({
      data: [
        { market_variant: BTC, market: 'BTC-PERP', time: '2026-06-01T23:53:00.000Z', long_usd: 5000, short_usd: 2500, total_usd: 7500 },
        { market_variant: USOL, market: 'SOL-PERP', time: '2026-06-01T23:55:00.000Z', long_usd: 400.123456, short_usd: 0, total_usd: 400.123456 },
        { market_variant: WSOL, market: 'SOL-PERP', time: '2026-06-01T23:55:00.000Z', long_usd: 1200.5, short_usd: 300.25, total_usd: 1500.75 },
      ],
    });
    const one = await json(`/v1/alpha/open-interest?market_variant=${encodeURIComponent(WSOL)}`, 'trial');
    expect(one.body.data).toEqual([body.data[2]]);
  });

  it('10: latest net rates per side per alpha variant', async () => {
    const { status, body } = await json('/v1/alpha/funding-rates', 'trial');
    expect(status).toBe(200);
    expect(body).toEqual({
      data: [
        { market_variant: BTC, time: '2026-06-01T23:53:00.000Z', funding_rate_long: -0.00003, funding_rate_short: 0.00001 },
        { market_variant: USOL, time: '2026-06-01T23:55:00.000Z', funding_rate_long: 0.00001, funding_rate_short: -0.00002 },
        { market_variant: WSOL, time: '2026-06-01T23:55:00.000Z', funding_rate_long: 0.0000123, funding_rate_short: -0.0000456 },
      ],
    });
    const one = await json(`/v1/alpha/funding-rates?market_variant=${encodeURIComponent(BTC)}`, 'trial');
    expect(one.body.data).toEqual([body.data[0]]);
  });

  it('unknown variant is a 400; malformed variant is a 400; unknown parameter is a 400', async () => {
    for (const path of ['/v1/alpha/open-interest', '/v1/alpha/funding-rates']) {
      const unknown = await json(`${path}?market_variant=${encodeURIComponent('DOGE/USD[USDC-USDC]')}`, 'trial');
      expect(unknown.status).toBe(400);
      expect(unknown.body.error).toMatchObject({ code: 'invalid_parameter', param: 'market_variant' });
      expect((await json(`${path}?market_variant=SOL`, 'trial')).body.error).toMatchObject({ code: 'invalid_parameter', param: 'market_variant' });
      expect((await json(`${path}?market=SOL-PERP`, 'trial')).body.error).toMatchObject({ code: 'unknown_parameter', param: 'market' });
    }
  });
});
