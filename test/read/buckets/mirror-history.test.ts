import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Simulator } from '../../../server/sources/simulate/simulator.ts';
import { refreshRollups } from '../../../jobs/rollup-refresh.ts';
import { HistoryMirror } from '../../../server/read/buckets/history-mirror.ts';
import { oiPieces, sumPieces } from '../../../server/read/buckets/history-pieces.ts';
import { resolveWindow, type HistoryInterval, type HistoryWindow } from '../../../server/http/history-window.ts';
import { liquidationsFromMirror, openInterestFromMirror, volumeFromMirror } from '../../../server/read/buckets/mirror-history.ts';
import { oiSeries } from '../../../server/read/buckets/oi-series.ts';
import { openTestApp, type TestApp } from '../../helpers/app.ts';
import { randomWindows } from '../../helpers/history-windows.ts';
import { readAhead } from '../../../server/read/buckets/edge-prefetch.ts';
import type { EdgeFill } from '../../../server/read/buckets/edge-buckets.ts';
import { PLAN_NAMES } from '../../../server/keys/plans.ts';
import { fill } from '../../helpers/fixtures.ts';
import type { Protocol } from '../../../server/journal/rows.ts';

/**
 * Endpoints 6, 8 and 9 from the in-memory mirror of the 5-minute buckets (issue 7) give exactly
 * the rows of their SQL, for windows that start and end anywhere (off every boundary, inside a
 * 5-minute bucket, before the first fill, across the first market snapshots, past the last data),
 * every interval and scope; after live appends (patched) as after a backfill (reloaded whole).
 * Beta's mirror (its own buckets and edge fills) gives beta's SQL rows the same way.
 */
const START = Date.UTC(2026, 3, 20);
const SNAPSHOTS_FROM = Date.UTC(2026, 4, 1);
const NOW = Date.UTC(2026, 4, 6, 12, 31, 7);
const LATER = Date.UTC(2026, 4, 6, 15, 2, 41);
const INTERVALS: HistoryInterval[] = ['5m', '15m', '1h', '4h', '1d'];
let t: TestApp;
let sim: Simulator;
let now = NOW;

beforeAll(async () => {
  sim = new Simulator({ seed: 11, start: START, snapshotsFrom: SNAPSHOTS_FROM });
  t = await openTestApp({ now: NOW, batches: sim.advance(NOW) });
  // the tests' service clock moves with `now` (later appends)
  (t.service as { now: () => number }).now = () => now;
}, 180_000);
afterAll(() => t.close());

/** Windows of every interval: aligned and not, defaulted `to`, before the data, past it. */
const SPAN_DAYS: Record<HistoryInterval, number> = { '5m': 2, '15m': 5, '1h': 9, '4h': 20, '1d': 30 };
const windows = (count: number, seed: number): HistoryWindow[] =>
  randomWindows({
    count,
    seed,
    intervals: INTERVALS,
    spanDays: (i) => SPAN_DAYS[i],
    kind: 'history',
    start: START,
    now,
    fiveMinuteEdges: true,
  });

async function loadedMirror(protocol: Protocol = 'alpha'): Promise<HistoryMirror> {
  const mirror = new HistoryMirror(t.service, { quietMs: 200 }, protocol);
  mirror.open();
  for (let i = 0; i < 500 && (await mirror.current()) === null; i++) await new Promise((r) => setTimeout(r, 10));
  expect(await mirror.current()).not.toBeNull();
  return mirror;
}

/** Asserts, for `list` windows and every scope, that the mirror's rows are the SQL's. */
async function compare(mirror: HistoryMirror, list: HistoryWindow[]): Promise<number> {
  let rows = 0;
  for (const [i, w] of list.entries()) {
    const market = [null, 'SOL-PERP', 'BTC-PERP', 'NOPE-PERP'][i % 4]!;
    const label = `${w.interval} ${new Date(w.from).toISOString()}..${new Date(w.to).toISOString()} ${market}`;
    const sums = { protocol: mirror.protocol, ...sumPieces(w.from, w.to, w.bucketMs), bucket_ms: w.bucketMs, market };
    const volume = await t.service.db.query('read/buckets/volume-history', sums);
    expect((await volumeFromMirror(mirror, market, w))?.rows, `9 ${label}`).toEqual(volume);
    const liquidations = await t.service.db.query('read/buckets/liquidations-history', sums);
    expect((await liquidationsFromMirror(mirror, market, w))?.rows, `6 ${label}`).toEqual(liquidations);
    const p = oiPieces(w);
    const oi = oiSeries(await t.service.db.query('read/buckets/open-interest-history', { protocol: mirror.protocol, ...p, market }), p.lo!, p.w_end!, w.bucketMs);
    expect((await openInterestFromMirror(mirror, market, p.lo!, p.w_end!, w.bucketMs))?.rows, `8 ${label}`).toEqual(oi);
    rows += volume.length + liquidations.length + oi.length;
  }
  return rows;
}

describe('history from the in-memory mirror', () => {
  it('equals the SQL on the simulated journal, window by window', async () => {
    const mirror = await loadedMirror();
    // the checks are not vacuous: the windows hold thousands of rows of every endpoint
    expect(await compare(mirror, windows(120, 7))).toBeGreaterThan(5_000);
  }, 120_000);

  it("equals the SQL for beta from beta's own mirror, window by window", async () => {
    const mirror = await loadedMirror('beta');
    expect(mirror.protocol).toBe('beta');
    const variants = (await mirror.current())!.variants;
    // one series per market (beta has no variants), and none of alpha's
    expect(variants.length).toBeGreaterThan(1);
    for (const v of variants) expect(v.variant).toBeNull();
    expect(await compare(mirror, windows(60, 8))).toBeGreaterThan(2_000);
  }, 120_000);

  it('stays equal through live appends (patched in) and after a backfill (reloaded whole)', async () => {
    const mirror = await loadedMirror();
    const beta = await loadedMirror('beta');
    // live: a few minutes at a time, each append patched before the next request
    for (const until of [NOW + 95_000, NOW + 7 * 60_000 + 13_000, NOW + 31 * 60_000]) {
      for (const batch of sim.advance(until)) await t.service.append(batch);
      now = until + 4_321;
      expect(await mirror.current()).not.toBeNull();
      await compare(mirror, windows(12, until));
      await compare(beta, windows(6, until + 1));
    }
    // a long span (a backfill) drops it: SQL answers meanwhile, then it reloads whole
    t.service.derivedChanged({ fromMs: START, toMs: now, marketSnapshots: true });
    expect(await mirror.current()).toBeNull();
    for (const batch of sim.advance(LATER)) await t.service.append(batch);
    now = LATER;
    for (let i = 0; i < 1_000 && (await mirror.current()) === null; i++) await new Promise((r) => setTimeout(r, 10));
    expect(await mirror.current()).not.toBeNull();
    await compare(mirror, windows(40, 3));
  }, 120_000);

  it('grows past the days it holds ahead, patch by patch (a journal of fills only: OI is their replay)', async () => {
    const t2 = await openTestApp({ now: NOW, batches: new Simulator({ seed: 4, start: START, snapshotsFrom: Date.UTC(2027, 0, 1) }).advance(START) });
    const sim2 = new Simulator({ seed: 4, start: START, snapshotsFrom: Date.UTC(2027, 0, 1) });
    const [saved, savedNow] = [t, now];
    try {
      t = t2;
      for (const batch of sim2.advance(START + 3 * 86_400_000)) await t.service.append(batch);
      const mirror = await loadedMirror();
      const held = (await mirror.current())!.variants[0]!.length;
      // a day per append, past the 7 days held beyond the newest bucket: each patched, never dropped
      const until = START + 12 * 86_400_000;
      for (const batch of sim2.advance(until)) {
        await t.service.append(batch);
        expect(await mirror.current()).not.toBeNull();
      }
      expect((await mirror.current())!.variants[0]!.length).toBeGreaterThan(held);
      now = until + 77_777;
      expect(await compare(mirror, windows(40, 9))).toBeGreaterThan(1_000);
    } finally {
      [t, now] = [saved, savedNow];
      await t2.close();
    }
  }, 120_000);

  it('follows the rollup refresh: a bucket it repairs in DuckDB is repaired in memory', async () => {
    // 5-minute buckets: the SQL reads rollup_5m alone, where the drift is made
    const w = resolveWindow({ interval: '5m', from: START, to: START + 86_400_000 }, { plan: 'internal', kind: 'history', now });
    const sql = () => t.service.db.query('read/buckets/volume-history', { protocol: 'alpha', ...sumPieces(w.from, w.to, w.bucketMs), bucket_ms: w.bucketMs, market: null });
    const before = await sql();
    // drift, as the refresh exists to repair (no append: nobody announces it), loaded by a mirror
    await t.service.db.write((x) =>
      x.exec(`UPDATE rollup_5m SET volume_usd = volume_usd + 1 WHERE protocol = 'alpha'
      AND bucket = (SELECT min(bucket) FROM rollup_5m WHERE protocol = 'alpha')`),
    );
    const drifted = await sql();
    expect(drifted).not.toEqual(before);
    const mirror = await loadedMirror();
    expect((await volumeFromMirror(mirror, null, w))?.rows).toEqual(drifted);
    // the refresh recomputes every bucket on its first run and announces the days it rewrote
    expect((await refreshRollups(t.service)).fillBuckets).toBeGreaterThan(0);
    expect(await sql()).toEqual(before);
    for (let i = 0; i < 1_000 && (await mirror.current()) === null; i++) await new Promise((r) => setTimeout(r, 10));
    expect((await volumeFromMirror(mirror, null, w))?.rows).toEqual(before);
    await compare(mirror, windows(12, 5));
  }, 60_000);

  it('serves endpoints 6, 8, 9 over HTTP with the SQL rows', async () => {
    await loadedMirror(); // the app's own mirror opened with it; by now it has loaded too
    for (let i = 0; i < 500; i++) {
      const res = await t.get('/v1/alpha/open-interest/history?interval=1h&market=SOL-PERP', 'internal');
      if (res.status === 200) break;
    }
    const path = '/v1/alpha/volume/history?interval=15m&from=2026-05-02T10:02:03Z&to=2026-05-04T00:00:00Z&market=SOL-PERP';
    const res = await t.get(path, 'internal');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: unknown[] };
    const w = resolveWindow({ interval: '15m', from: Date.parse('2026-05-02T10:02:03Z'), to: Date.parse('2026-05-04T00:00:00Z') }, { plan: 'internal', kind: 'history', now });
    const sql = await t.service.db.query('read/buckets/volume-history', { protocol: 'alpha', ...sumPieces(w.from, w.to, w.bucketMs), bucket_ms: w.bucketMs, market: 'SOL-PERP' });
    expect(sql.length).toBeGreaterThan(100);
    expect(body.data).toEqual(sql);
  });

  it('reads an edge bucket once for every market and window, and adds the fills of an append that lands in it', async () => {
    const mirror = await loadedMirror();
    // this mirror's reads only (the app's own mirror reads ahead on a timer)
    const edgeReads = () => mirror.edges.stats.reads;
    // windows that start 30 s into a bucket after the fills so far and reach past it
    const bucket = Math.floor(now / 300_000) * 300_000 + 300_000;
    const window = (interval: HistoryInterval, from: number) => resolveWindow({ interval, from, to: from + 3_600_000 }, { plan: 'internal', kind: 'history', now: from + 3_600_000 });
    const asked = async (market: string | null, w: HistoryWindow) => {
      const sums = { protocol: 'alpha', ...sumPieces(w.from, w.to, w.bucketMs), bucket_ms: w.bucketMs, market };
      expect((await volumeFromMirror(mirror, market, w))?.rows).toEqual(await t.service.db.query('read/buckets/volume-history', sums));
      expect((await liquidationsFromMirror(mirror, market, w))?.rows).toEqual(await t.service.db.query('read/buckets/liquidations-history', sums));
    };
    for (const batch of sim.advance(bucket + 100_000)) await t.service.append(batch);
    now = bucket + 100_000;
    expect((await mirror.current())!.variants.some((v) => v.cell('fill_count', (bucket - v.origin) / 300_000) > 0)).toBe(true);
    const before = await volumeFromMirror(mirror, null, window('5m', bucket + 30_000));
    expect(edgeReads()).toBe(1);
    for (const market of [null, 'SOL-PERP', 'BTC-PERP']) {
      for (const interval of ['5m', '1h'] as const) await asked(market, window(interval, bucket + 30_000 + (market?.length ?? 0)));
    }
    expect(edgeReads()).toBe(1); // six windows and three scopes later, still the one read
    expect(mirror.edges.size).toBe(1);
    // fills of the rest of the bucket: added to the kept bucket, not read again, and the answers
    // (the SQL's exactly) include them
    for (const batch of sim.advance(bucket + 299_000)) await t.service.append(batch);
    now = bucket + 299_000;
    const after = await volumeFromMirror(mirror, null, window('5m', bucket + 30_000));
    expect(after?.rows).not.toEqual(before?.rows);
    for (const market of [null, 'SOL-PERP', 'BTC-PERP']) await asked(market, window('15m', bucket + 30_000));
    expect(edgeReads()).toBe(1);
    // and the bucket as kept is the bucket as read now, fill for fill
    const fresh = await t.service.db.query('read/buckets/edge-fills', { protocol: 'alpha', lo: bucket, hi: bucket + 300_000 });
    const bySeq = (rows: readonly object[]) => [...rows].sort((a, b) => Number((a as EdgeFill).seq) - Number((b as EdgeFill).seq));
    expect(bySeq(await mirror.edges.fills(bucket))).toEqual(bySeq(fresh));
    // a job's change (no fills: the rollup refresh) still drops it
    t.service.derivedChanged({ fromMs: bucket, toMs: bucket + 1, marketSnapshots: false });
    await asked(null, window('5m', bucket + 30_000));
    expect(edgeReads()).toBe(2);
  }, 60_000);

  it('reads ahead the edge buckets where windows whose start follows the clock begin', async () => {
    const mirror = await loadedMirror();
    const edgeReads = () => mirror.edges.stats.reads;
    now += 600_000; // no fills in the bucket of `to`: only the start's edges are read
    expect(await readAhead(mirror, now, 60_000)).toBe(true);
    const read = edgeReads();
    expect(read).toBeGreaterThanOrEqual(3); // the 1-, 3- and 7-day spans start inside the history
    // every default window (and plan floor) of 6 and 9 finds its edges kept: no read, the SQL's rows
    for (const plan of PLAN_NAMES) {
      for (const interval of INTERVALS) {
        for (const market of [null, 'SOL-PERP']) {
          const history = resolveWindow({ interval }, { plan, kind: 'history', now });
          const sums = { protocol: 'alpha', ...sumPieces(history.from, history.to, history.bucketMs), bucket_ms: history.bucketMs, market };
          expect((await volumeFromMirror(mirror, market, history))?.rows).toEqual(await t.service.db.query('read/buckets/volume-history', sums));
          if (!['1h', '4h', '1d'].includes(interval)) continue;
          const liq = resolveWindow({ interval }, { plan, kind: 'liquidations', now });
          const liqSums = { protocol: 'alpha', ...sumPieces(liq.from, liq.to, liq.bucketMs), bucket_ms: liq.bucketMs, market };
          expect((await liquidationsFromMirror(mirror, market, liq))?.rows).toEqual(await t.service.db.query('read/buckets/liquidations-history', liqSums));
        }
      }
    }
    expect(edgeReads()).toBe(read);
  }, 60_000);

  it('sums past 2^53 micro-dollars over every market as the SQL does (a $16.5B day of two markets, each below it)', async () => {
    const day = Date.UTC(2026, 4, 3);
    // $1.1B positions, 7 in one market and 8 in the other, each opened in its own 5-minute bucket
    // (the mirror loads a bucket's amount only below 2^50 micro-dollars, ~$1.13B) and liquidated
    // in another: each market's OI and day stay below 2^53 micro-dollars, their sum does not. The
    // amounts are chosen so that the sum's exact cast differs from `Number(micro) / 1e6`.
    const markets = [
      { market: 'SOL-PERP', market_variant: 'SOL/USD[WSOL-USDC]', side: 'long' as const, size: 1_100_000_000.123457, count: 7 },
      { market: 'BTC-PERP', market_variant: 'BTC/USD[USDC-USDC]', side: 'short' as const, size: 1_100_000_000.654321, count: 8 },
    ];
    const fills = markets
      .flatMap(({ size, count, ...m }, k) =>
        Array.from({ length: count }, (_, i) => {
          const key = `HUGE${k}${i}`;
          const address = `Huge${k}${i}`.padEnd(44, '1');
          return [
            fill({
              time: Date.UTC(2026, 4, 3, 10, 5 * i + k, 7),
              position_key: key,
              address,
              ...m,
              size_delta_usd: size,
              position_size_usd: size,
              collateral_delta_usd: 1e8,
              position_collateral_usd: 1e8,
              fee_usd: 0.000001,
            }),
            fill({
              time: Date.UTC(2026, 4, 3, 14, 5 * i + k, 11),
              position_key: key,
              address,
              ...m,
              type: 'liquidation',
              size_delta_usd: -size,
              position_size_usd: 0,
              collateral_delta_usd: -1e8,
              position_collateral_usd: 0,
              pnl_delta_usd: -1e8,
              liquidation_fee_usd: 1_000.000001,
            }),
          ];
        }).flat(),
      )
      .sort((a, b) => a.time - b.time);
    const t2 = await openTestApp({ now: day + 2 * 86_400_000, batches: [{ fills, marketSnapshots: [], positionSnapshots: [] }] });
    const [saved, savedNow] = [t, now];
    try {
      t = t2;
      now = day + 2 * 86_400_000;
      const mirror = await loadedMirror();
      const list: HistoryWindow[] = INTERVALS.flatMap((interval) =>
        [0, 1, 2, 3].map((k) => resolveWindow({ interval, from: day - 86_400_000 + k * 1_234_567, to: day + 86_400_000 - k * 777_777 }, { plan: 'internal', kind: 'history', now })),
      );
      expect(await compare(mirror, list)).toBeGreaterThan(100);
      // the mirror answered (it declined before: the SQL then gave these rows)
      const w = resolveWindow({ interval: '1d', from: day, to: day + 86_400_000 }, { plan: 'internal', kind: 'history', now });
      const [volume] = (await volumeFromMirror(mirror, null, w))!.rows;
      expect(volume!.volume_usd).toBeGreaterThan(2 ** 53 / 1e6);
      const [liquidations] = (await liquidationsFromMirror(mirror, null, w))!.rows;
      expect(liquidations!.total_usd).toBeGreaterThan(2 ** 53 / 1e6);
      const p = oiPieces(resolveWindow({ interval: '1h', from: day, to: day + 86_400_000 }, { plan: 'internal', kind: 'history', now }));
      const oi = (await openInterestFromMirror(mirror, null, p.lo!, p.w_end!, 3_600_000))!.rows;
      expect(Math.max(...oi.map((r) => r.total_usd))).toBeGreaterThan(2 ** 53 / 1e6);
    } finally {
      [t, now] = [saved, savedNow];
      await t2.close();
    }
  }, 60_000);
});
