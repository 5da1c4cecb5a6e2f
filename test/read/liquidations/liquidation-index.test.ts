import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Simulator } from '../../../server/sources/simulate/simulator.ts';
import { LiquidationIndex, servedOf, type LiquidationSearch } from '../../../server/read/liquidations/liquidation-index.ts';
import { pageBody } from '../../../server/http/routes/liquidations.ts';
import { openTestApp, type TestApp } from '../../helpers/app.ts';
import type { Protocol } from '../../../server/journal/rows.ts';

/**
 * `GET /v1/alpha/liquidations/search` from the liquidation events in memory gives exactly the SQL's rows for
 * every filter, bound, cursor and fetch size, walking whole cursor chains; after appends the next
 * search has the new events. Beta's index (its own events, markets without variants) answers beta's
 * searches the same way.
 */
const START = Date.UTC(2026, 3, 5);
const NOW = Date.UTC(2026, 4, 3, 12, 30);
const DAY = 86_400_000;
let t: TestApp;
let sim: Simulator;

beforeAll(async () => {
  sim = new Simulator({ seed: 3, start: START, snapshotsFrom: Date.UTC(2026, 4, 1) });
  t = await openTestApp({ now: NOW, batches: sim.advance(NOW) });
}, 180_000);
afterAll(() => t.close());

async function loaded(protocol: Protocol = 'alpha'): Promise<LiquidationIndex> {
  const index = new LiquidationIndex(t.service, protocol);
  const probe: LiquidationSearch = { market: null, market_variant: null, from: null, to: null, after_time: null, after_seq: null, fetch: 1 };
  for (let i = 0; i < 500 && (await index.search(probe)) === null; i++) await new Promise((r) => setTimeout(r, 10));
  expect(await index.search(probe)).not.toBeNull();
  return index;
}

/** Follows the cursor chain of `first` through both, comparing every page; returns the rows seen. */
async function chain(index: LiquidationIndex, first: LiquidationSearch): Promise<number> {
  let q = first;
  let seen = 0;
  for (let page = 0; page < 6; page++) {
    const sql = await t.service.db.query('api/alpha-liquidations-search', { protocol: index.protocol, ...q });
    const found = (await index.search(q))!;
    expect(found, JSON.stringify(q)).toEqual(sql.map(servedOf));
    for (const row of found) expect((JSON.parse(row.json.toString()) as { protocol: string }).protocol).toBe(index.protocol);
    // the page's bytes copied from the rows' own are JSON.stringify of the answer object
    const cursor = sql.length === q.fetch ? 'next' : null;
    const data = sql.slice(0, q.fetch - 1).map(({ time_ms: _t, seq: _s, ...row }) => row);
    expect(pageBody(found.slice(0, q.fetch - 1), cursor).body.toString()).toBe(JSON.stringify({ data, next_cursor: cursor }));
    seen += sql.length;
    if (sql.length < q.fetch) break;
    const last = sql.at(-2)!; // the page is fetch - 1 rows; the last row only says more exist
    q = { ...q, after_time: last.time_ms as number, after_seq: last.seq as number };
  }
  return seen;
}

/** Searches of every scope and bound; `at`: times of events, for bounds that fall exactly on one. */
function searches(variants: string[], at: number[]): LiquidationSearch[] {
  const none = { market: null, market_variant: null, from: null, to: null, after_time: null, after_seq: null };
  const out: LiquidationSearch[] = [];
  const exact = [{ from: at[0]!, to: at[1]! }, { from: at[1]! }, { to: at[2]! }];
  const scopes = [
    {},
    { market: 'SOL-PERP' },
    { market: 'BTC-PERP' },
    { market_variant: variants[0]! },
    { market: 'NOPE-PERP' },
    { market: 'BTC-PERP', market_variant: variants[0]! },
    { market: 'SOL-PERP', market_variant: variants[0]! },
  ];
  for (const scope of scopes) {
    for (const bounds of [{}, { to: NOW - 20 * DAY }, { from: NOW - 30 * DAY }, { from: NOW - 40 * DAY, to: NOW - 10 * DAY + 12_345 }, ...exact]) {
      for (const fetch of [2, 41, 501]) out.push({ ...none, ...scope, ...bounds, fetch });
    }
  }
  return out;
}

/** Walks every search's cursor chain through `protocol`'s index and its SQL; returns the rows seen. */
async function compareAll(protocol: Protocol): Promise<number> {
  const index = await loaded(protocol);
  // beta has no variants: its variant scopes are alpha's (no match)
  const variants = (await t.service.db.querySql(`SELECT DISTINCT market_variant FROM liquidations WHERE protocol = 'alpha' ORDER BY 1`)).map((r) => r.market_variant as string);
  // event times to bound on exactly (inclusive from, exclusive to): the oldest decile and two later ones
  const at = (
    await t.service.db.querySql(
      `SELECT epoch_ms(time) AS t FROM liquidations WHERE protocol = $p AND market = 'SOL-PERP'
    ORDER BY time, seq`,
      { p: protocol },
    )
  ).map((r) => Number(r.t));
  let rows = 0;
  for (const q of searches(variants, [at[Math.floor(at.length / 10)]!, at[Math.floor(at.length / 2)]!, at[Math.floor(at.length * 0.8)]!])) {
    rows += await chain(index, q);
  }
  return rows;
}

describe('endpoint 5 from the liquidation events in memory', () => {
  it('equals the SQL for every filter, bound and page of a cursor chain', async () => {
    expect(await compareAll('alpha')).toBeGreaterThan(2_000);
  }, 120_000);

  it("equals the SQL for beta from beta's own index", async () => {
    expect(await compareAll('beta')).toBeGreaterThan(2_000);
  }, 120_000);

  it('has the events of every append at the next search', async () => {
    const index = await loaded();
    const all: LiquidationSearch = { market: null, market_variant: null, from: null, to: null, after_time: null, after_seq: null, fetch: 100_000 };
    const before = (await index.search(all))!.length;
    for (const batch of sim.advance(NOW + 5 * DAY)) await t.service.append(batch);
    const after = await index.search(all);
    expect(after!.length).toBeGreaterThan(before);
    expect(after).toEqual((await t.service.db.query('api/alpha-liquidations-search', { protocol: 'alpha', ...all })).map(servedOf));
  }, 60_000);
});
