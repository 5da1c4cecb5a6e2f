import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Simulator } from '../../server/sources/simulate/simulator.ts';
import { marketSnapshotsOf } from '../../server/ingest/columns.ts';
import type { IncomingBatch, IncomingFill, MarketSnapshot, Protocol } from '../../server/journal/rows.ts';
import { openTestApp, type TestApp } from '../helpers/app.ts';

/**
 * GET /v1/{protocol}/prices/history over a simulated journal whose market snapshots start on day 2:
 * each candle's open / close are the first / last index price observed in its bucket (fills before
 * the market's first snapshot, snapshots from it on), high / low the extremes.
 */
const START = Date.UTC(2026, 3, 20);
const SNAPSHOTS_FROM = Date.UTC(2026, 3, 21, 12);
const NOW = Date.UTC(2026, 3, 22, 9, 41);
const H = 3_600_000;
let t: TestApp;
let fills: IncomingFill[];
let snapshots: MarketSnapshot[];

beforeAll(async () => {
  const sim = new Simulator({ seed: 3, start: START, snapshotsFrom: SNAPSHOTS_FROM });
  const batches: IncomingBatch[] = sim.advance(NOW);
  fills = batches.flatMap((b) => b.fills);
  snapshots = batches.flatMap((b) => [...b.marketSnapshots, ...(b.marketSnapshotColumns ? marketSnapshotsOf(b.marketSnapshotColumns) : [])]);
  t = await openTestApp({ now: NOW, batches });
}, 120_000);
afterAll(() => t?.close());

async function get(path: string, status = 200): Promise<any> {
  const res = await t.get(path, 'premium');
  const body = await res.json();
  expect(res.status, `${path} → ${JSON.stringify(body).slice(0, 300)}`).toBe(status);
  return body;
}

/** The candles recomputed from the raw rows: observations in (time, fills first, journal order). */
function expectedCandles(protocol: Protocol, market: string, from: number, to: number, bucket: number) {
  const snaps = snapshots.filter((s) => s.protocol === protocol && s.market === market);
  const first = snaps.length ? Math.min(...snaps.map((s) => s.time)) : Infinity;
  const obs = [
    ...fills.filter((f) => f.protocol === protocol && f.market === market && f.time < first).map((f, i) => ({ t: f.time, src: 0, i, v: '', p: f.index_price })),
    ...snaps.map((s) => ({ t: s.time, src: 1, i: 0, v: s.market_variant ?? '', p: s.index_price })),
  ]
    .filter((o) => o.t >= from && o.t < to)
    .sort((a, b) => a.t - b.t || a.src - b.src || (a.v < b.v ? -1 : a.v > b.v ? 1 : 0) || a.i - b.i);
  const out = new Map<number, { open: number; high: number; low: number; close: number; observations: number }>();
  for (const o of obs) {
    const k = Math.floor(o.t / bucket) * bucket;
    const c = out.get(k);
    if (!c) out.set(k, { open: o.p, high: o.p, low: o.p, close: o.p, observations: 1 });
    else Object.assign(c, { high: Math.max(c.high, o.p), low: Math.min(c.low, o.p), close: o.p, observations: c.observations + 1 });
  }
  return [...out].map(([k, c]) => ({ time: new Date(k).toISOString(), ...c }));
}

describe('GET /v1/{protocol}/prices/history', () => {
  it("windows that cut 5-minute buckets (and the first snapshot's) equal the raw observations", async () => {
    // whole 5-minute buckets are read from the derived price_5m, partial ones from raw rows
    const windows: [number, number, string, number][] = [
      [START + 6 * H + 150_000, NOW - H - 7 * 60_000, '5m', 5 * 60_000],
      [SNAPSHOTS_FROM - 3 * 60_000 - 17_000, SNAPSHOTS_FROM + 2 * H + 61_000, '15m', 15 * 60_000],
      [SNAPSHOTS_FROM + 3 * H + 60_000, SNAPSHOTS_FROM + 3 * H + 240_000, '5m', 5 * 60_000],
    ];
    for (const protocol of ['alpha', 'beta'] as const) {
      for (const [from, to, interval, bucket] of windows) {
        const body = await get(`/v1/${protocol}/prices/history?market=SOL-PERP&interval=${interval}&from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`);
        expect(body.data, `${protocol} ${interval} ${new Date(from).toISOString()}`).toEqual(expectedCandles(protocol, 'SOL-PERP', from, to, bucket));
      }
    }
  });

  it('hourly and daily windows read from the hour and day levels equal the raw observations', async () => {
    // whole days come from price_1d, whole hours from price_1h, the rest from price_5m and raw rows
    const D = 24 * H;
    const windows: [number, number, string, number][] = [
      [START, NOW, '1d', D],
      [START + 3 * H + 20 * 60_000 + 9_000, NOW - 60_000, '1d', D],
      [START + 5 * H + 10 * 60_000, NOW - 2 * H - 5 * 60_000, '1h', H],
      [SNAPSHOTS_FROM - 90 * 60_000 - 1_000, SNAPSHOTS_FROM + 9 * H + 35 * 60_000, '4h', 4 * H],
      [START + D, START + 2 * D, '1d', D],
    ];
    for (const protocol of ['alpha', 'beta'] as const) {
      for (const market of ['SOL-PERP', 'ETH-PERP']) {
        for (const [from, to, interval, bucket] of windows) {
          const body = await get(`/v1/${protocol}/prices/history?market=${market}&interval=${interval}&from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`);
          const expected = expectedCandles(protocol, market, from, to, bucket);
          expect(expected.length).toBeGreaterThan(0);
          expect(body.data, `${protocol} ${market} ${interval} ${new Date(from).toISOString()}`).toEqual(expected);
        }
      }
    }
  });

  it('the hour and day levels kept at append equal one aggregate of the 5-minute rows', async () => {
    const level = (unit: string) => `
      SELECT protocol, market, src, time_bucket(INTERVAL 1 ${unit}, bucket) AS bucket,
             arg_min(open, (first_us, first_k, first_seq)) AS open, max(high) AS high, min(low) AS low,
             arg_max(close, (last_us, last_k, last_seq)) AS close, sum(observations)::INTEGER AS observations,
             min(first_us) AS first_us, arg_min(first_k, (first_us, first_k, first_seq)) AS first_k,
             arg_min(first_seq, (first_us, first_k, first_seq)) AS first_seq, max(last_us) AS last_us,
             arg_max(last_k, (last_us, last_k, last_seq)) AS last_k, arg_max(last_seq, (last_us, last_k, last_seq)) AS last_seq
      FROM price_5m GROUP BY ALL`;
    for (const [table, unit] of [
      ['price_1h', 'HOUR'],
      ['price_1d', 'DAY'],
    ]) {
      const [counts] = await t.service.db.querySql(`SELECT
        (SELECT count(*) FROM (SELECT * FROM ${table} EXCEPT ALL (${level(unit!)})))::INTEGER AS only_kept,
        (SELECT count(*) FROM ((${level(unit!)}) EXCEPT ALL SELECT * FROM ${table}))::INTEGER AS only_aggregate,
        (SELECT count(*) FROM ${table})::INTEGER AS kept`);
      expect(counts, table).toEqual({ only_kept: 0, only_aggregate: 0, kept: expect.any(Number) });
      expect(counts!.kept as number, table).toBeGreaterThan(unit === 'HOUR' ? 100 : 5);
    }
  });

  for (const protocol of ['alpha', 'beta'] as const) {
    it(`${protocol}: candles equal the first / last / extreme index prices per bucket, across the first snapshot`, async () => {
      const market = 'SOL-PERP';
      const from = START + 6 * H;
      const to = NOW - H;
      const body = await get(`/v1/${protocol}/prices/history?market=${market}&interval=15m&from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`);
      expect(body).toMatchObject({ interval: '15m', from: new Date(from).toISOString(), to: new Date(to).toISOString() });
      const expected = expectedCandles(protocol, market, from, to, 15 * 60_000);
      expect(expected.length).toBeGreaterThan(50);
      expect(expected.some((c) => Date.parse(c.time) < SNAPSHOTS_FROM) && expected.some((c) => Date.parse(c.time) > SNAPSHOTS_FROM)).toBe(true);
      expect(body.data).toEqual(expected);
      for (const c of body.data) expect(c.low <= Math.min(c.open, c.close) && c.high >= Math.max(c.open, c.close)).toBe(true);
    });
  }

  it("takes the history envelope's defaults and the plan depth", async () => {
    const body = await get('/v1/beta/prices/history?market=ETH-PERP');
    expect(body.interval).toBe('1h');
    expect(body.to).toBe(new Date(NOW).toISOString());
    expect(body.from).toBe(new Date(NOW - 7 * 24 * H).toISOString());
    expect(body.data.length).toBeGreaterThan(24);
    const trial = (await (await t.get('/v1/beta/prices/history?market=ETH-PERP&interval=1d&from=2025-01-01', 'trial')).json()) as any;
    expect(trial.from).toBe(new Date(NOW - 30 * 24 * H).toISOString());
  });

  it('rejects bad input with the parameter named', async () => {
    expect((await get('/v1/beta/prices/history', 400)).error.param).toBe('market');
    expect((await get('/v1/beta/prices/history?market=NOPE-PERP', 400)).error.param).toBe('market');
    expect((await get('/v1/alpha/prices/history?market=SOL-PERP&interval=2h', 400)).error.param).toBe('interval');
    expect((await get('/v1/alpha/prices/history?market=SOL-PERP&interval=5m&from=2025-01-01', 400)).error.code).toBe('window_too_large');
    expect((await get('/v1/alpha/prices/history?market=SOL-PERP&from=2026-04-22&to=2026-04-21', 400)).error.param).toBe('from');
    expect((await get('/v1/alpha/prices/history?market=SOL-PERP&market_variant=x', 400)).error.code).toBe('unknown_parameter');
    expect((await t.get('/v1/alpha/prices/history?market=SOL-PERP', null)).status).toBe(401);
  });
});
