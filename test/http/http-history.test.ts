import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { at, fill, marketSnapshot } from '../helpers/fixtures.ts';
import { openTestApp, type TestApp } from '../helpers/app.ts';
import type { IncomingBatch } from '../../server/journal/rows.ts';

/** Clock pinned at NOW (on an hour boundary). */
const NOW = at('2026-06-02T12:00:00Z');
const H = 3_600_000;
const D = 24 * H;
const iso = (ms: number) => new Date(ms).toISOString();
const T = (hhmmss: string) => at(`2026-06-02T${hhmmss}Z`);

const V1 = 'SOL/USD[WSOL-USDC]';
const V2 = 'SOL/USD[USDC-USDC]';
const V3 = 'BTC/USD[USDC-USDC]';

/**
 * Known-answer journal (all alpha unless said):
 *  V1 (SOL-PERP): A long open 1000 @08:10:00 (fee .5); B short open 400 @08:12:30 (fee .2);
 *                 A +500 @09:03 (fee .25); A −300 @10:07 (fee .15); F open 100 / close −100 40 days ago.
 *                 Market snapshots from 10:00 on (OI differs from the fill replay on purpose):
 *                 10:00:00 L1600 S400, 10:01:00 L1650 S400, 10:31:00 L1350 S400, 11:15:00 L1350 S400.
 *  V2 (SOL-PERP): C long open 200 @09:30 (fee .1); E long open 300 @09:40 (fee .3), liquidated
 *                 @10:03:30 (fee .3, liquidation fee 3). No snapshots.
 *  V3 (BTC-PERP): D short open 2000 @08:20 (fee 1), liquidated @10:02:00 (fee 1.5, liq fee 10);
 *                 G short open 500 at NOW−10d−1h, liquidated at NOW−10d (liq fee 5). No snapshots.
 *  beta SOL-PERP: open 5000 @09:00 (must never show up).
 */
function journal(): IncomingBatch {
  const fills = [
    fill({ time: NOW - 40 * D, position_key: 'F', size_delta_usd: 100, position_size_usd: 100, fee_usd: 0.05, fee_total_usd: 0.05 }),
    fill({
      time: NOW - 40 * D + H,
      position_key: 'F',
      type: 'close',
      size_delta_usd: -100,
      position_size_usd: 0,
      collateral_delta_usd: -100,
      position_collateral_usd: 0,
      fee_usd: 0.05,
      fee_total_usd: 0.05,
    }),
    fill({ time: NOW - 10 * D - H, position_key: 'G', market: 'BTC-PERP', market_variant: V3, side: 'short', size_delta_usd: 500, position_size_usd: 500, fee_usd: 0.25, fee_total_usd: 0.25 }),
    fill({
      time: NOW - 10 * D,
      position_key: 'G',
      market: 'BTC-PERP',
      market_variant: V3,
      side: 'short',
      type: 'liquidation',
      size_delta_usd: -500,
      position_size_usd: 0,
      collateral_delta_usd: -100,
      position_collateral_usd: 0,
      fee_usd: 0.25,
      liquidation_fee_usd: 5,
      fee_total_usd: 5.25,
    }),
    fill({ time: T('08:10:00'), position_key: 'A', size_delta_usd: 1000, position_size_usd: 1000, fee_usd: 0.5, fee_total_usd: 0.5 }),
    fill({ time: T('08:12:30'), position_key: 'B', side: 'short', size_delta_usd: 400, position_size_usd: 400, fee_usd: 0.2, fee_total_usd: 0.2 }),
    fill({ time: T('08:20:00'), position_key: 'D', market: 'BTC-PERP', market_variant: V3, side: 'short', size_delta_usd: 2000, position_size_usd: 2000, fee_usd: 1, fee_total_usd: 1 }),
    fill({ time: T('09:00:00'), protocol: 'beta', position_key: 'Z', market: 'SOL-PERP', market_variant: null, size_delta_usd: 5000, position_size_usd: 5000, fee_usd: 3, fee_total_usd: 3 }),
    fill({ time: T('09:03:00'), position_key: 'A', type: 'increase', size_delta_usd: 500, position_size_usd: 1500, collateral_delta_usd: 0, fee_usd: 0.25, fee_total_usd: 0.25 }),
    fill({ time: T('09:30:00'), position_key: 'C', market_variant: V2, size_delta_usd: 200, position_size_usd: 200, fee_usd: 0.1, fee_total_usd: 0.1 }),
    fill({ time: T('09:40:00'), position_key: 'E', market_variant: V2, size_delta_usd: 300, position_size_usd: 300, fee_usd: 0.3, fee_total_usd: 0.3 }),
    fill({
      time: T('10:02:00'),
      position_key: 'D',
      market: 'BTC-PERP',
      market_variant: V3,
      side: 'short',
      type: 'liquidation',
      size_delta_usd: -2000,
      position_size_usd: 0,
      collateral_delta_usd: -100,
      position_collateral_usd: 0,
      fee_usd: 1.5,
      liquidation_fee_usd: 10,
      fee_total_usd: 11.5,
    }),
    fill({
      time: T('10:03:30'),
      position_key: 'E',
      market_variant: V2,
      type: 'liquidation',
      size_delta_usd: -300,
      position_size_usd: 0,
      collateral_delta_usd: -100,
      position_collateral_usd: 0,
      fee_usd: 0.3,
      liquidation_fee_usd: 3,
      fee_total_usd: 3.3,
    }),
    fill({ time: T('10:07:00'), position_key: 'A', type: 'decrease', size_delta_usd: -300, position_size_usd: 1200, collateral_delta_usd: 0, fee_usd: 0.15, fee_total_usd: 0.15 }),
  ];
  const marketSnapshots = [
    marketSnapshot({ time: T('10:00:00'), oi_long_usd: 1600, oi_short_usd: 400, funding_rate_long: 0.0001, funding_rate_short: -0.0002 }),
    marketSnapshot({ time: T('10:01:00'), oi_long_usd: 1650, oi_short_usd: 400, funding_rate_long: 0.0003, funding_rate_short: -0.0004 }),
    marketSnapshot({ time: T('10:31:00'), oi_long_usd: 1350, oi_short_usd: 400, funding_rate_long: 0.0002, funding_rate_short: 0 }),
    marketSnapshot({ time: T('11:15:00'), oi_long_usd: 1350, oi_short_usd: 400, funding_rate_long: 0.0004, funding_rate_short: -0.0001 }),
  ];
  return { fills, marketSnapshots, positionSnapshots: [] };
}

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp({ now: NOW, batches: [journal()] });
});
afterAll(async () => {
  await t?.close();
});

async function get(path: string, plan: 'trial' | 'premium' = 'premium') {
  const res = await t.get(path, plan);
  return { status: res.status, body: (await res.json()) as any };
}

const FROM8 = 'from=2026-06-02T08:00:00Z';

describe('window logic (contract §4)', () => {
  it('defaults: interval 1h, to = now, from = to − 7 d', async () => {
    const { status, body } = await get('/v1/alpha/volume/history');
    expect(status).toBe(200);
    expect(body.interval).toBe('1h');
    expect(body.to).toBe('2026-06-02T12:00:00.000Z');
    expect(body.from).toBe(iso(NOW - 7 * D));
    expect(Object.keys(body)).toEqual(['interval', 'from', 'to', 'data']);
  });

  it('default window per interval: 5m → 1 d, 15m → 3 d, 4h → 30 d, 1d → 365 d (before to)', async () => {
    for (const [interval, days] of [
      ['5m', 1],
      ['15m', 3],
      ['4h', 30],
      ['1d', 365],
    ] as const) {
      const { body } = await get(`/v1/alpha/volume/history?interval=${interval}&to=2026-06-01T00:00:00Z`);
      expect(body.from).toBe(iso(at('2026-06-01T00:00:00Z') - days * D));
      expect(body.to).toBe('2026-06-01T00:00:00.000Z');
    }
  });

  it('clamps from to the plan depth measured back from now and echoes it (trial vs premium)', async () => {
    const q = `/v1/alpha/open-interest/history?from=${iso(NOW - 40 * D)}`;
    expect((await get(q, 'trial')).body.from).toBe(iso(NOW - 30 * D));
    expect((await get(q, 'premium')).body.from).toBe(iso(NOW - 40 * D));
    // default 1d window (365 d) is clamped for trial too
    expect((await get('/v1/alpha/volume/history?interval=1d', 'trial')).body.from).toBe(iso(NOW - 30 * D));
    // liquidations use the liquidation lookback (trial 7 d), funding the funding depth (30 d, every plan)
    expect((await get(`/v1/alpha/liquidations/history?from=${iso(NOW - 15 * D)}`, 'trial')).body.from).toBe(iso(NOW - 7 * D));
    expect((await get(`/v1/alpha/funding-rates/history?market_variant=${encodeURIComponent(V1)}&from=${iso(NOW - 40 * D)}`, 'premium')).body.from).toBe(iso(NOW - 30 * D));
  });

  it('a window ending before the plan depth is a 400 on to', async () => {
    const { status, body } = await get(`/v1/alpha/volume/history?from=${iso(NOW - 50 * D)}&to=${iso(NOW - 40 * D)}`, 'trial');
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 'invalid_parameter', param: 'to' });
  });

  it('from >= to is a 400 invalid_parameter on from', async () => {
    for (const q of ['from=2026-06-02T10:00:00Z&to=2026-06-02T10:00:00Z', 'from=2026-06-02T11:00:00Z&to=2026-06-02T10:00:00Z', 'from=2026-06-03']) {
      const { status, body } = await get(`/v1/alpha/volume/history?${q}`);
      expect(status).toBe(400);
      expect(body.error).toMatchObject({ code: 'invalid_parameter', param: 'from' });
    }
  });

  it('more than 10,000 buckets is a 400 window_too_large; exactly 10,000 is fine', async () => {
    const big = await get('/v1/alpha/volume/history?interval=5m&from=2026-01-01');
    expect(big.status).toBe(400);
    expect(big.body.error.code).toBe('window_too_large');
    const ok = await get(`/v1/alpha/volume/history?interval=5m&from=${iso(NOW - 10_000 * 300_000)}`);
    expect(ok.status).toBe(200);
    const over = await get(`/v1/alpha/volume/history?interval=5m&from=${iso(NOW - 10_000 * 300_000 - 1)}`);
    expect(over.body.error.code).toBe('window_too_large');
  });

  it('epoch numbers are rejected with "use RFC 3339"', async () => {
    const { status, body } = await get('/v1/alpha/open-interest/history?from=1780000000000');
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 'invalid_parameter', param: 'from' });
    expect(body.error.message).toContain('RFC 3339');
  });

  it('times outside 1970-01-01 … 9999-12-31 are a 400 naming the parameter (answers could not echo them)', async () => {
    for (const [q, param] of [
      ['to=0000-01-01T00:00:00Z', 'to'],
      ['from=1969-12-31T23:59:59.999Z', 'from'],
      ['from=0001-01-01', 'from'],
      ['to=9999-12-31T23:59:59-00:01', 'to'],
    ] as const) {
      for (const path of ['/v1/alpha/volume/history', '/v1/alpha/liquidations/search']) {
        const { status, body } = await get(`${path}?${q.replace('+', '%2B')}`);
        expect(status, `${path}?${q}`).toBe(400);
        expect(body.error).toMatchObject({ code: 'invalid_parameter', param });
        expect(body.error.message).toContain('1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z');
      }
    }
    // the edges themselves are fine, and a default window that starts before 1970 still echoes four-digit years
    const early = await get('/v1/alpha/volume/history?interval=1d&to=1970-01-01T00:00:00Z');
    expect(early.status).toBe(200);
    expect(early.body.from).toMatch(/^1969-\d{2}-\d{2}T/);
    expect(early.body.to).toBe('1970-01-01T00:00:00.000Z');
    const late = await get('/v1/alpha/liquidations/search?to=9999-12-31T23:59:59.999Z');
    expect(late.status).toBe(200);
  });

  it('rejects intervals outside the endpoint set and unknown parameters', async () => {
    expect((await get('/v1/alpha/liquidations/history?interval=5m')).body.error).toMatchObject({ code: 'invalid_parameter', param: 'interval' });
    expect((await get('/v1/alpha/volume/history?market_variant=SOL%2FUSD%5BWSOL-USDC%5D')).body.error.code).toBe('unknown_parameter');
  });

  it('an unknown market or variant is a 400 naming it, not an empty series', async () => {
    for (const path of ['/v1/alpha/volume/history?market=DOGE-PERP', '/v1/alpha/open-interest/history?market=DOGE-PERP', '/v1/alpha/liquidations/history?market=DOGE-PERP']) {
      const { status, body } = await get(path);
      expect(status).toBe(400);
      expect(body.error).toMatchObject({ code: 'invalid_parameter', param: 'market' });
    }
    const f = await get('/v1/alpha/funding-rates/history?market_variant=DOGE%2FUSD%5BUSDC-USDC%5D');
    expect(f.body.error).toMatchObject({ code: 'invalid_parameter', param: 'market_variant' });
  });
});

describe('8: amounts in the millions, exact', () => {
  it('sums exact millions across a snapshot variant and a fills-only one, through increases and decreases', async () => {
    const t2 = await openTestApp({
      now: NOW,
      batches: [
        {
          fills: [
            fill({ time: T('08:10:00'), position_key: 'P', market_variant: V2, size_delta_usd: 3_000_000.25, position_size_usd: 3_000_000.25 }),
            fill({ time: T('08:20:00'), position_key: 'Q', market_variant: V2, side: 'short', size_delta_usd: 1_234_567.891234, position_size_usd: 1_234_567.891234 }),
            fill({ time: T('09:10:00'), position_key: 'P', market_variant: V2, type: 'decrease', size_delta_usd: -1_250_000.5, position_size_usd: 1_749_999.75, collateral_delta_usd: 0 }),
          ],
          marketSnapshots: [marketSnapshot({ time: T('10:00:00'), oi_long_usd: 2_500_000.5, oi_short_usd: 1_000_000.123456 })],
          positionSnapshots: [],
        },
      ],
    });
    try {
      const res = await t2.get('/v1/alpha/open-interest/history?interval=1h&from=2026-06-02T08:00:00Z&to=2026-06-02T11:00:00Z', 'premium');
      expect(res.status).toBe(200);
      expect(((await res.json()) as any).data).toEqual([
        { time: '2026-06-02T08:00:00.000Z', long_usd: 3_000_000.25, short_usd: 1_234_567.891234, total_usd: 4_234_568.141234 },
        { time: '2026-06-02T09:00:00.000Z', long_usd: 1_749_999.75, short_usd: 1_234_567.891234, total_usd: 2_984_567.641234 },
        { time: '2026-06-02T10:00:00.000Z', long_usd: 4_249_999.75 + 0.5, short_usd: 2_234_568.01469, total_usd: 6_484_568.26469 },
      ]);
    } finally {
      await t2.close();
    }
  });
});

describe('known markets (server/http/scope.ts)', () => {
  it('knows every market from one query, but asks again for an unknown one, which an append may bring', async () => {
    const t2 = await openTestApp({ now: NOW, batches: [{ fills: [fill({ time: T('08:00:00') })], marketSnapshots: [], positionSnapshots: [] }] });
    try {
      const lookups = vi.spyOn(t2.service.db, 'queryOne');
      const scopeLookups = () => lookups.mock.calls.filter(([name]) => name === 'api/alpha-scope-known').length;
      const seeds = vi.spyOn(t2.service.db, 'query');
      const seedLookups = () => seeds.mock.calls.filter(([name]) => name === 'api/alpha-scopes-known').length;
      const vol = (market: string) => t2.get(`/v1/alpha/volume/history?${FROM8}&market=${market}&to=2026-06-02T11:00:00Z`, 'premium');
      expect((await vol('SOL-PERP')).status).toBe(200);
      expect((await vol('sol-perp')).status).toBe(200);
      expect((await t2.get('/v1/alpha/open-interest/history?market=SOL-PERP', 'premium')).status).toBe(200);
      expect([seedLookups(), scopeLookups()]).toEqual([1, 0]);
      expect((await vol('DOGE-PERP')).status).toBe(400);
      expect((await vol('DOGE-PERP')).status).toBe(400);
      expect([seedLookups(), scopeLookups()]).toEqual([1, 2]);
      await t2.service.append({
        fills: [fill({ time: T('09:00:00'), market: 'DOGE-PERP', market_variant: 'DOGE/USD[USDC-USDC]', position_key: 'DOGE1' })],
        marketSnapshots: [],
        positionSnapshots: [],
      });
      const after = await vol('DOGE-PERP');
      expect(after.status).toBe(200);
      expect(((await after.json()) as any).data).toHaveLength(1);
    } finally {
      await t2.close();
    }
  });
});

describe('9: volume history', () => {
  it('protocol-wide hourly buckets, empty buckets omitted, beta excluded', async () => {
    const { body } = await get(`/v1/alpha/volume/history?${FROM8}`);
    expect(body.data).toEqual([
      { time: '2026-06-02T08:00:00.000Z', volume_usd: 3400, fees_usd: 1.7 },
      { time: '2026-06-02T09:00:00.000Z', volume_usd: 1000, fees_usd: 0.65 },
      { time: '2026-06-02T10:00:00.000Z', volume_usd: 300, fees_usd: 1.95 },
    ]);
  });

  it('per market (case-insensitive); a liquidation-only bucket has volume 0 and its trading fee', async () => {
    expect((await get(`/v1/alpha/volume/history?${FROM8}&market=sol-perp`)).body.data).toEqual([
      { time: '2026-06-02T08:00:00.000Z', volume_usd: 1400, fees_usd: 0.7 },
      { time: '2026-06-02T09:00:00.000Z', volume_usd: 1000, fees_usd: 0.65 },
      { time: '2026-06-02T10:00:00.000Z', volume_usd: 300, fees_usd: 0.45 },
    ]);
    expect((await get(`/v1/alpha/volume/history?${FROM8}&market=BTC-PERP`)).body.data).toEqual([
      { time: '2026-06-02T08:00:00.000Z', volume_usd: 2000, fees_usd: 1 },
      { time: '2026-06-02T10:00:00.000Z', volume_usd: 0, fees_usd: 1.5 },
    ]);
  });

  it('partial first bucket: only fills at or after from count, even inside a 5-minute rollup bucket', async () => {
    const { body } = await get('/v1/alpha/volume/history?from=2026-06-02T08:11:00Z&to=2026-06-02T09:00:00Z');
    expect(body.from).toBe('2026-06-02T08:11:00.000Z');
    expect(body.data).toEqual([{ time: '2026-06-02T08:00:00.000Z', volume_usd: 2400, fees_usd: 1.2 }]);
  });

  it('bucket edges: a fill exactly at to is out, exactly at from is in; 5m buckets', async () => {
    const { body } = await get('/v1/alpha/volume/history?interval=5m&from=2026-06-02T08:10:00Z&to=2026-06-02T08:20:00Z');
    expect(body.data).toEqual([{ time: '2026-06-02T08:10:00.000Z', volume_usd: 1400, fees_usd: 0.7 }]);
    const tail = await get('/v1/alpha/volume/history?interval=5m&from=2026-06-02T10:00:00Z&to=2026-06-02T10:03:00Z');
    expect(tail.body.data).toEqual([{ time: '2026-06-02T10:00:00.000Z', volume_usd: 0, fees_usd: 1.5 }]);
  });

  it('4h and 1d buckets are aligned to the UTC epoch', async () => {
    expect((await get(`/v1/alpha/volume/history?interval=4h&${FROM8}`)).body.data).toEqual([{ time: '2026-06-02T08:00:00.000Z', volume_usd: 4700, fees_usd: 4.3 }]);
    expect((await get('/v1/alpha/volume/history?interval=1d&from=2026-06-02T06:00:00Z')).body.data).toEqual([{ time: '2026-06-02T00:00:00.000Z', volume_usd: 4700, fees_usd: 4.3 }]);
  });
});

describe('6: liquidation history', () => {
  it('protocol-wide and per market; empty buckets omitted', async () => {
    const all = await get(`/v1/alpha/liquidations/history?${FROM8}`);
    expect(all.status).toBe(200);
    expect(all.body.data).toEqual([{ time: '2026-06-02T10:00:00.000Z', count: 2, long_usd: 300, short_usd: 2000, total_usd: 2300, fees_usd: 13 }]);
    expect((await get(`/v1/alpha/liquidations/history?${FROM8}&market=BTC-PERP`)).body.data).toEqual([
      { time: '2026-06-02T10:00:00.000Z', count: 1, long_usd: 0, short_usd: 2000, total_usd: 2000, fees_usd: 10 },
    ]);
  });

  it('exact at edges inside a 5-minute bucket (from and to)', async () => {
    expect((await get('/v1/alpha/liquidations/history?from=2026-06-02T10:03:00Z')).body.data).toEqual([
      { time: '2026-06-02T10:00:00.000Z', count: 1, long_usd: 300, short_usd: 0, total_usd: 300, fees_usd: 3 },
    ]);
    expect((await get(`/v1/alpha/liquidations/history?${FROM8}&to=2026-06-02T10:03:00Z`)).body.data).toEqual([
      { time: '2026-06-02T10:00:00.000Z', count: 1, long_usd: 0, short_usd: 2000, total_usd: 2000, fees_usd: 10 },
    ]);
  });

  it('lookback by plan: premium sees the liquidation 10 days ago, trial (7 d) does not', async () => {
    const q = `/v1/alpha/liquidations/history?from=${iso(NOW - 15 * D)}&interval=1d`;
    expect((await get(q, 'premium')).body.data).toEqual([
      { time: iso(at('2026-05-23T00:00:00Z')), count: 1, long_usd: 0, short_usd: 500, total_usd: 500, fees_usd: 5 },
      { time: '2026-06-02T00:00:00.000Z', count: 2, long_usd: 300, short_usd: 2000, total_usd: 2300, fees_usd: 13 },
    ]);
    const trial = await get(q, 'trial');
    expect(trial.body.from).toBe(iso(NOW - 7 * D));
    expect(trial.body.data).toHaveLength(1);
  });
});

describe('8: open-interest history', () => {
  it('protocol-wide: replay before snapshots, snapshots after, carry-forward, state at bucket end', async () => {
    const { status, body } = await get(`/v1/alpha/open-interest/history?${FROM8}`);
    expect(status).toBe(200);
    expect(body.data).toEqual([
      // V1 replay 1000/400, V3 2000 short
      { time: '2026-06-02T08:00:00.000Z', long_usd: 1000, short_usd: 2400, total_usd: 3400 },
      // V1 replay 1500/400 (its first snapshot, 10:00:00, is not before the bucket end), V2 500, V3 2000
      { time: '2026-06-02T09:00:00.000Z', long_usd: 2000, short_usd: 2400, total_usd: 4400 },
      // V1 from its 10:31 snapshot (1350, the replay would say 1200), V2 200, V3 0
      { time: '2026-06-02T10:00:00.000Z', long_usd: 1550, short_usd: 400, total_usd: 1950 },
      // no fill: V1's 11:15 snapshot, others carried forward
      { time: '2026-06-02T11:00:00.000Z', long_usd: 1550, short_usd: 400, total_usd: 1950 },
    ]);
  });

  it('switch-over at 5m: last replayed bucket, then the first snapshot bucket', async () => {
    const { body } = await get('/v1/alpha/open-interest/history?interval=5m&market=SOL-PERP&from=2026-06-02T09:55:00Z&to=2026-06-02T10:10:00Z');
    expect(body.data).toEqual([
      { time: '2026-06-02T09:55:00.000Z', long_usd: 2000, short_usd: 400, total_usd: 2400 }, // V1 replay 1500 + V2 500
      { time: '2026-06-02T10:00:00.000Z', long_usd: 1850, short_usd: 400, total_usd: 2250 }, // V1 snapshot 10:01 (1650) + V2 200
      { time: '2026-06-02T10:05:00.000Z', long_usd: 1850, short_usd: 400, total_usd: 2250 }, // 10:07 decrease is not in a snapshot
    ]);
  });

  it('a running or truncated last bucket is the state at to (replay includes fills inside the partial 5 minutes)', async () => {
    const q = '/v1/alpha/open-interest/history?interval=1h&market=BTC-PERP&from=2026-06-02T10:00:00Z';
    expect((await get(`${q}&to=2026-06-02T10:02:00Z`)).body.data).toEqual([{ time: '2026-06-02T10:00:00.000Z', long_usd: 0, short_usd: 2000, total_usd: 2000 }]);
    expect((await get(`${q}&to=2026-06-02T10:02:01Z`)).body.data).toEqual([{ time: '2026-06-02T10:00:00.000Z', long_usd: 0, short_usd: 0, total_usd: 0 }]);
    // a future to: rows stop at the bucket holding now
    const future = await get('/v1/alpha/open-interest/history?market=BTC-PERP&from=2026-06-02T10:00:00Z&to=2026-06-03T00:00:00Z');
    expect(future.body.to).toBe('2026-06-03T00:00:00.000Z');
    expect(future.body.data.map((r: any) => r.time)).toEqual(['2026-06-02T10:00:00.000Z', '2026-06-02T11:00:00.000Z']);
  });

  it('rows start at the first bucket with a position and have no gaps', async () => {
    const { body } = await get(`/v1/alpha/open-interest/history?market=BTC-PERP&from=${iso(NOW - 12 * D)}`);
    const rows = body.data as any[];
    expect(rows[0]).toEqual({ time: iso(NOW - 10 * D - H), long_usd: 0, short_usd: 500, total_usd: 500 });
    expect(rows[1]).toEqual({ time: iso(NOW - 10 * D), long_usd: 0, short_usd: 0, total_usd: 0 });
    expect(rows).toHaveLength(10 * 24 + 1);
    for (let i = 1; i < rows.length; i++) expect(Date.parse(rows[i].time) - Date.parse(rows[i - 1].time)).toBe(H);
    expect(rows.find((r) => r.time === '2026-06-02T08:00:00.000Z')).toMatchObject({ short_usd: 2000 });
  });
});

describe('11: funding-rate history', () => {
  const V1Q = `market_variant=${encodeURIComponent(V1)}`;

  it('requires market_variant and takes no market', async () => {
    const missing = await get('/v1/alpha/funding-rates/history');
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'invalid_parameter', param: 'market_variant' });
    expect((await get(`/v1/alpha/funding-rates/history?${V1Q}&market=SOL-PERP`)).body.error.code).toBe('unknown_parameter');
  });

  it('averages the snapshot rates per bucket, omits buckets without snapshots', async () => {
    const { status, body } = await get(`/v1/alpha/funding-rates/history?${V1Q}&${FROM8}`);
    expect(status).toBe(200);
    expect(body.data.map((r: any) => r.time)).toEqual(['2026-06-02T10:00:00.000Z', '2026-06-02T11:00:00.000Z']);
    expect(body.data[0].funding_rate_long).toBeCloseTo(0.0002, 15);
    expect(body.data[0].funding_rate_short).toBeCloseTo(-0.0002, 15);
    expect(body.data[1]).toEqual({ time: '2026-06-02T11:00:00.000Z', funding_rate_long: 0.0004, funding_rate_short: -0.0001 });
    const four = await get(`/v1/alpha/funding-rates/history?${V1Q}&${FROM8}&interval=4h`);
    expect(four.body.data).toHaveLength(1);
    expect(four.body.data[0].time).toBe('2026-06-02T08:00:00.000Z');
    expect(four.body.data[0].funding_rate_long).toBeCloseTo(0.00025, 15);
    expect(four.body.data[0].funding_rate_short).toBeCloseTo(-0.000175, 15);
  });

  it('a variant without snapshots gives an empty series (it is known, from its fills)', async () => {
    const { status, body } = await get(`/v1/alpha/funding-rates/history?market_variant=${encodeURIComponent(V3)}&${FROM8}`);
    expect(status).toBe(200);
    expect(body.data).toEqual([]);
  });
});
