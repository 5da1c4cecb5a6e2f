import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Simulator } from '../../../server/sources/simulate/simulator.ts';
import { refreshRollups } from '../../../jobs/rollup-refresh.ts';
import { FundingIndex } from '../../../server/read/funding/funding-index.ts';
import { resolveWindow } from '../../../server/http/history-window.ts';
import { windowParams, type HistoryInterval, type HistoryWindow } from '../../../server/read/window.ts';
import { openTestApp, type TestApp } from '../../helpers/app.ts';
import { fill } from '../../helpers/fixtures.ts';
import { randomWindows } from '../../helpers/history-windows.ts';

/**
 * `GET /v1/alpha/funding-rates/history` from the in-memory hourly funding rows
 * (server/read/funding/funding-index.ts) gives exactly the rows of its SQL, bit for bit (DuckDB's own DECIMAL →
 * DOUBLE cast of the exact sums), for windows that start and end anywhere and every coarse interval and
 * variant; after live appends, a change announced over the whole history, and the rollup refresh
 * repairing a drift.
 */
const START = Date.UTC(2026, 3, 20);
const SNAPSHOTS_FROM = Date.UTC(2026, 3, 24);
const NOW = Date.UTC(2026, 4, 6, 12, 31, 7);
const INTERVALS: HistoryInterval[] = ['1h', '4h', '1d'];
let t: TestApp;
let sim: Simulator;
let now = NOW;
let variants: string[];

beforeAll(async () => {
  sim = new Simulator({ seed: 12, start: START, snapshotsFrom: SNAPSHOTS_FROM });
  t = await openTestApp({ now: NOW, batches: sim.advance(NOW) });
  (t.service as { now: () => number }).now = () => now;
  variants = (await t.service.db.querySql(`SELECT DISTINCT market_variant AS v FROM funding_1h WHERE protocol = 'alpha' ORDER BY 1`)).map((r) => r.v as string);
}, 60_000);
afterAll(() => t.close());

/** Windows of every coarse interval: aligned and not, defaulted `to`, before the data, past it. */
const windows = (count: number, seed: number): HistoryWindow[] =>
  randomWindows({
    count,
    seed,
    intervals: INTERVALS,
    spanDays: () => 20,
    kind: 'funding',
    start: START,
    now,
    fiveMinuteEdges: false,
  });

async function loadedIndex(): Promise<FundingIndex> {
  const index = new FundingIndex(t.service);
  await index.loaded();
  return index;
}

/** Asserts, for `list` windows and every variant (and an unknown one), that the index's rows are the SQL's. */
async function compare(index: FundingIndex, list: HistoryWindow[]): Promise<number> {
  let rows = 0;
  for (const [i, w] of list.entries()) {
    for (const variant of [...variants, 'NOPE/USD[USDC-USDC]'].filter((_, k) => (k + i) % 3 === 0)) {
      const sql = await t.service.db.query('read/funding/funding-rates-history', { protocol: 'alpha', ...windowParams(w), market_variant: variant, market: null });
      const label = `${w.interval} ${new Date(w.from).toISOString()}..${new Date(w.to).toISOString()} ${variant}`;
      expect(await index.rows(variant, w.from, w.to, w.bucketMs), label).toEqual(sql);
      rows += sql.length;
    }
  }
  return rows;
}

describe('funding history from the in-memory hourly rows', () => {
  it('equals the SQL on the simulated journal, window by window', async () => {
    expect(variants.length).toBeGreaterThan(3);
    const index = await loadedIndex();
    // not vacuous: thousands of rows, of every interval
    expect(await compare(index, windows(90, 7))).toBeGreaterThan(3_000);
  }, 120_000);

  it('stays equal through live appends, read in before the next answer', async () => {
    const index = await loadedIndex();
    for (const until of [NOW + 95_000, NOW + 47 * 60_000 + 13_000, NOW + 3 * 3_600_000]) {
      for (const batch of sim.advance(until)) await t.service.append(batch);
      now = until + 4_321;
      await compare(index, windows(15, until));
    }
    // a change over the whole history (a backfill's span) is read in whole
    t.service.derivedChanged({ fromMs: START, toMs: now, marketSnapshots: true });
    await compare(index, windows(15, 5));
    // a fills-only append (every second or two in live mode) changes no funding row: nothing is read again
    const db = t.service.db;
    const query = db.query.bind(db);
    const reads: string[] = [];
    db.query = (name, params) => {
      reads.push(name);
      return query(name, params);
    };
    try {
      await t.service.append({ fills: [fill({ time: now - 1_000, tx: 'funding-fills-only', position_key: 'FFO' })], marketSnapshots: [], positionSnapshots: [] });
      await compare(index, windows(5, 77));
      expect(reads).toContain('read/funding/funding-rates-history');
      expect(reads).not.toContain('read/funding/funding-1h');
    } finally {
      db.query = query;
    }
  }, 120_000);

  it('follows the rollup refresh: an hour it repairs in DuckDB is repaired in memory', async () => {
    const w = resolveWindow({ interval: '1h', from: SNAPSHOTS_FROM, to: SNAPSHOTS_FROM + 2 * 86_400_000 }, { plan: 'internal', kind: 'funding', now });
    const variant = variants[0]!;
    const sql = () => t.service.db.query('read/funding/funding-rates-history', { protocol: 'alpha', ...windowParams(w), market_variant: variant, market: null });
    const before = await sql();
    expect(before.length).toBeGreaterThan(10);
    // drift, as the refresh exists to repair (no append: nobody announces it), loaded by an index
    await t.service.db.write((x) =>
      x.exec(`UPDATE funding_1h SET rate_long_sum = rate_long_sum + 0.001 WHERE protocol = 'alpha'
      AND bucket = (SELECT min(bucket) FROM funding_1h WHERE protocol = 'alpha')`),
    );
    const drifted = await sql();
    expect(drifted).not.toEqual(before);
    const index = await loadedIndex();
    expect(await index.rows(variant, w.from, w.to, w.bucketMs)).toEqual(drifted);
    // the refresh recomputes every hour on its first run and announces the days it rewrote
    await refreshRollups(t.service);
    expect(await sql()).toEqual(before);
    expect(await index.rows(variant, w.from, w.to, w.bucketMs)).toEqual(before);
  }, 60_000);

  it('serves endpoint 11 over HTTP with the SQL rows', async () => {
    const variant = variants[1]!;
    const path = `/v1/alpha/funding-rates/history?market_variant=${encodeURIComponent(variant)}&interval=4h&from=2026-04-25T10:02:03Z&to=2026-05-04T00:00:00Z`;
    const res = await t.get(path, 'internal');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: unknown[] };
    const w = resolveWindow({ interval: '4h', from: Date.parse('2026-04-25T10:02:03Z'), to: Date.parse('2026-05-04T00:00:00Z') }, { plan: 'internal', kind: 'funding', now });
    const sql = await t.service.db.query('read/funding/funding-rates-history', { protocol: 'alpha', ...windowParams(w), market_variant: variant, market: null });
    expect(sql.length).toBeGreaterThan(40);
    expect(body.data).toEqual(sql);
  });
});
