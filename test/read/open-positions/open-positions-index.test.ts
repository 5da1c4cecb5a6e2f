import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../../server/db/database.ts';
import { Simulator } from '../../../server/sources/simulate/simulator.ts';
import { OpenPositionsIndex } from '../../../server/read/open-positions/open-positions-index.ts';
import type { OpenPositionSearch, OpenPositionSort } from '../../../server/read/open-positions/open-position-set.ts';
import { OPEN_POSITION_SORTS } from '../../../server/http/routes/open-positions.ts';
import { openTestApp, type TestApp } from '../../helpers/app.ts';
import type { Protocol } from '../../../server/journal/rows.ts';

/**
 * Endpoint 16 from the open positions in memory (issue 7) gives exactly the SQL's page, total and
 * meta for every sort, both orders, filters alone and together, pages inside and past the end;
 * endpoint 17 exactly the SQL's summary for every market; and after appends (fills, position and
 * market snapshots) the next search and summary see the new state. Loads happen at open and right
 * after an append whose set a request read, not after one nobody read. Beta's set (its own rows,
 * one per market without variants) answers beta's searches, summaries and live fields the same way.
 */
const START = Date.UTC(2026, 3, 20);
const NOW = Date.UTC(2026, 4, 3, 12, 30);
let t: TestApp;
let sim: Simulator;

beforeAll(async () => {
  sim = new Simulator({ seed: 5, start: START, snapshotsFrom: Date.UTC(2026, 4, 1) });
  t = await openTestApp({ now: NOW, batches: sim.advance(NOW) });
}, 60_000);
afterAll(() => t.close());

/** The SQL's answer, shaped as the route shapes it. */
async function viaSql(q: OpenPositionSearch, protocol: Protocol = 'alpha') {
  const rows = await t.service.db.query('api/alpha-open-positions-search', { protocol, ...q });
  const first = rows[0]!;
  return {
    data: rows.filter((r) => r.position_id !== null).map(({ total: _t, oldest_updated: _o, last_full_refresh: _l, ...row }) => row),
    total: first.total,
    meta: { oldest_updated: first.oldest_updated, last_full_refresh: first.last_full_refresh },
  };
}

/** Searches covering every sort and order with the filters alone and combined (beta's variant filter: an alpha variant, no match). */
async function searches(protocol: Protocol = 'alpha'): Promise<OpenPositionSearch[]> {
  const open = await t.service.db.querySql(
    `SELECT address, market, coalesce(market_variant, (SELECT max(market_variant) FROM lifecycles)) AS market_variant
    FROM lifecycles WHERE protocol = $p AND status = 'open' ORDER BY position_id LIMIT 3`,
    { p: protocol },
  );
  const none = { market_variant: null, market: null, address: null, side: null, min_size_usd: null };
  const filters = [
    none,
    { ...none, market: 'SOL-PERP' },
    { ...none, market_variant: open[0]!.market_variant as string },
    { ...none, side: 'short' },
    { ...none, min_size_usd: 25_000 },
    { ...none, address: open[1]!.address as string },
    { ...none, market: open[2]!.market as string, side: 'long', min_size_usd: 1_000 },
  ];
  const out: OpenPositionSearch[] = [];
  for (const f of filters) {
    for (const sort_by of OPEN_POSITION_SORTS as readonly OpenPositionSort[]) {
      for (const order of ['asc', 'desc'] as const) {
        for (const [offset, limit] of [
          [0, 500],
          [7, 20],
          [100_000, 10],
        ])
          out.push({ ...f, sort_by, order, offset: offset!, limit: limit! });
      }
    }
  }
  return out;
}

const ALL: OpenPositionSearch = { market_variant: null, market: null, address: null, side: null, min_size_usd: null, sort_by: 'size', order: 'desc', offset: 0, limit: 10 };

/**
 * `GET /v1/alpha/open-positions/stats` from memory and from its SQL, for every market with open
 * positions, none, and one without any; a search first loads the current generation's set (a summary
 * does not load it).
 */
async function compareSummaries(index: OpenPositionsIndex): Promise<number> {
  await index.search(ALL);
  const markets = await t.service.db.querySql(`SELECT DISTINCT market FROM open_lifecycles WHERE protocol = $p ORDER BY market`, { p: index.protocol });
  let positions = 0;
  for (const market of [null, ...markets.map((r) => r.market as string), 'NOPE-PERP']) {
    const sql = await t.service.db.queryOne('api/alpha-open-positions-stats', { protocol: index.protocol, market });
    const memory = index.summary(market);
    expect(memory, String(market)).toEqual(sql);
    positions += memory!.total_positions;
  }
  return positions;
}

async function compareAll(index: OpenPositionsIndex): Promise<number> {
  let rows = 0;
  for (const q of await searches(index.protocol)) {
    const sql = await viaSql(q, index.protocol);
    const memory = await index.search(q);
    expect(memory, JSON.stringify(q)).toEqual(sql);
    for (const row of memory!.data) expect(row.protocol).toBe(index.protocol);
    rows += sql.data.length;
  }
  return rows;
}

describe('endpoint 16 from the open positions in memory', () => {
  it('equals the SQL for every sort, order, filter and page', async () => {
    const index = new OpenPositionsIndex(t.service);
    const [{ n }] = (await t.service.db.querySql(`SELECT count(*)::INTEGER AS n FROM lifecycles WHERE protocol = 'alpha' AND status = 'open'`)) as [{ n: number }];
    expect(n).toBeGreaterThan(50);
    expect(await compareAll(index)).toBeGreaterThan(5_000);
  }, 60_000);

  it("equals the SQL for beta from beta's own set: searches, summaries, live fields", async () => {
    const index = new OpenPositionsIndex(t.service, 'beta');
    const [{ n }] = (await t.service.db.querySql(`SELECT count(*)::INTEGER AS n FROM open_lifecycles WHERE protocol = 'beta'`)) as [{ n: number }];
    expect(n).toBeGreaterThan(50);
    expect(await compareAll(index)).toBeGreaterThan(5_000);
    // every beta position twice (protocol-wide, then in its market), and no alpha one
    expect(await compareSummaries(index)).toBe(2 * n);
    const ids = await t.service.db.querySql(`SELECT position_id, protocol FROM lifecycles
      ORDER BY status = 'open' DESC, position_id LIMIT 120`);
    for (const r of ids) {
      const id = r.position_id as number;
      const sql = await t.service.db.queryOne('api/alpha-position-live', { protocol: 'beta', id });
      expect(await index.live(id), `position ${id} (${r.protocol})`).toEqual(sql ?? null);
    }
  }, 60_000);

  it("gives endpoint 17's summary exactly as its SQL: exact sums, the same mean leverage bits, the newest update", async () => {
    const index = new OpenPositionsIndex(t.service);
    const [{ n }] = (await t.service.db.querySql(`SELECT count(*)::INTEGER AS n FROM open_lifecycles WHERE protocol = 'alpha'`)) as [{ n: number }];
    // every position twice: protocol-wide, then in its market
    expect(await compareSummaries(index)).toBe(2 * n);
    const none = index.summary('NOPE-PERP');
    expect(none).toEqual({
      market: 'NOPE-PERP',
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

  it('answers endpoint 17 only from a set already loaded for the current generation, never a stale one', async () => {
    const index = new OpenPositionsIndex(t.service);
    expect(index.summary(null)).toBeNull(); // nothing loaded: the route runs the SQL
    await index.search(ALL);
    const before = index.summary(null);
    expect(before).toEqual(await t.service.db.queryOne('api/alpha-open-positions-stats', { protocol: 'alpha', market: null }));
    for (const batch of sim.advance(NOW + 30 * 60_000)) await t.service.append(batch);
    expect(index.summary(null)).toBeNull(); // a newer generation, not loaded yet
    await index.search(ALL);
    const after = index.summary(null);
    expect(after).toEqual(await t.service.db.queryOne('api/alpha-open-positions-stats', { protocol: 'alpha', market: null }));
    expect(after).not.toEqual(before);
  }, 60_000);

  it("gives endpoint 18's live fields of an open lifecycle exactly as its SQL, null for one not open", async () => {
    const index = new OpenPositionsIndex(t.service);
    const ids = await t.service.db.querySql(`SELECT position_id, status FROM lifecycles WHERE protocol = 'alpha'
      ORDER BY status = 'open' DESC, position_id LIMIT 80`);
    expect(ids.filter((r) => r.status === 'open').length).toBeGreaterThan(40);
    for (const r of ids) {
      const id = r.position_id as number;
      const sql = await t.service.db.queryOne('api/alpha-position-live', { protocol: 'alpha', id });
      expect(await index.live(id), `position ${id}`).toEqual(sql ?? null);
    }
  });

  it('sees every append at the next search (fills, position and market snapshots)', async () => {
    const index = new OpenPositionsIndex(t.service);
    const q: OpenPositionSearch = { market_variant: null, market: null, address: null, side: null, min_size_usd: null, sort_by: 'pnl', order: 'desc', offset: 0, limit: 500 };
    const before = await index.search(q);
    for (const until of [NOW + 60_000, NOW + 3_600_000]) {
      for (const batch of sim.advance(until)) await t.service.append(batch);
      expect(await index.search(q)).toEqual(await viaSql(q));
    }
    expect(await index.search(q)).not.toEqual(before);
    await compareAll(index);
    await compareSummaries(index);
  }, 60_000);

  it('loads at open, again right after an append whose set a request read, and not after one nobody read', async () => {
    const loads: number[] = [];
    const db = Object.create(t.service.db) as Database;
    db.query = (name, params) => {
      if (name === 'read/open-positions/alpha-open-positions-all') loads.push(t.service.lastSeq());
      return t.service.db.query(name, params);
    };
    const index = new OpenPositionsIndex({ ...t.service, db });
    const stats = () => t.service.db.queryOne('api/alpha-open-positions-stats', { protocol: 'alpha', market: null });
    let appends = 0;
    const off = t.service.onAppend(() => void (appends += 1));
    const appendOne = async (until: number) => {
      const before = appends;
      for (const batch of sim.advance(until)) await t.service.append(batch);
      expect(appends - before).toBe(1);
    };
    try {
      expect(index.warm()).toBe(false);
      index.open();
      expect(loads).toHaveLength(1);
      await vi.waitUntil(() => index.warm(), { timeout: 10_000 });
      expect(index.summary(null)).toEqual(await stats()); // loaded with no search
      await appendOne(NOW + 3_660_000); // nobody read the set
      expect(loads).toHaveLength(1);
      expect(index.warm()).toBe(true); // nothing waits for the old set
      expect(index.summary(null)).toBeNull();
      await index.search(ALL); // a request loads it, and has now read it
      expect(loads).toHaveLength(2);
      await appendOne(NOW + 3_720_000);
      expect(loads).toHaveLength(3); // at once, before any request
      await vi.waitUntil(() => index.warm(), { timeout: 10_000 });
      expect(index.summary(null)).toEqual(await stats());
      expect(await index.search(ALL)).toEqual(await viaSql(ALL));
      expect(loads).toHaveLength(3); // the search found it loaded
    } finally {
      off();
    }
  }, 60_000);
});
