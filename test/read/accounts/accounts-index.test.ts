import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountsIndex, MAX_PATCH } from '../../../server/read/accounts/accounts-index.ts';
import { summaryOf, totalsFromSql } from '../../../server/read/accounts/accounts-summary.ts';
import { Simulator } from '../../../server/sources/simulate/simulator.ts';
import { fill, marketSnapshot, positionSnapshot } from '../../helpers/fixtures.ts';
import { openTestApp, type TestApp } from '../../helpers/app.ts';

/**
 * `GET /v1/alpha/accounts/search` and `GET /v1/alpha/accounts/{address}` answer from an in-memory
 * snapshot of the alpha accounts (server/read/accounts/accounts-index.ts). After every append they must answer
 * from the new state: each answer is compared with the accounts as DuckDB holds them right then, sorted
 * and filtered here.
 */
const START = Date.UTC(2026, 3, 20);
const FIRST = Date.UTC(2026, 3, 24);
const NOW = Date.UTC(2026, 3, 28);
let t: TestApp;
let sim: Simulator;

beforeAll(async () => {
  sim = new Simulator({ seed: 3, start: START, snapshotsFrom: NOW });
  t = await openTestApp({ now: NOW, batches: sim.advance(FIRST) });
}, 60_000);
afterAll(() => t.close());

type Account = Record<string, unknown> & { address: string; volume_usd: number; trades: number };

/** Every alpha account from DuckDB now, as served: the snapshot's rows without their held `_` columns. */
async function servedAccounts(): Promise<Account[]> {
  const rows = await t.service.db.query('read/accounts/alpha-accounts-all', { protocol: 'alpha' });
  return rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !k.startsWith('_'))) as Account);
}

/** The expected page: every account from DuckDB now, by `field` (desc: volume desc) then address asc. */
async function expected(minTrades: number, limit: number, field: 'volume_usd' | 'positions' = 'volume_usd', dir = -1): Promise<{ data: Account[]; total: number }> {
  const all = await servedAccounts();
  const matched = all.filter((a) => a.trades >= minTrades).sort((a, b) => ((a[field] as number) - (b[field] as number)) * dir || (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  return { data: matched.slice(0, limit), total: matched.length };
}

describe('13 / 14 from the in-memory accounts', () => {
  it('follow every append (search, then one account)', async () => {
    let day = FIRST;
    for (let round = 0; round < 3; round++) {
      const res = await t.get('/v1/alpha/accounts/search?sort_by=volume&order=desc&min_trades=1&limit=20', 'internal');
      const body = (await res.json()) as { data: Account[]; pagination: { total: number } };
      const want = await expected(1, 20);
      expect(body.pagination.total, `round ${round}`).toBe(want.total);
      expect(body.data, `round ${round}`).toEqual(want.data);
      expect(want.total).toBeGreaterThan(0);
      // `GET /v1/alpha/accounts/{address}` reads the loaded snapshot: the same row as the SQL
      const top = want.data[0]!;
      const one = (await (await t.get(`/v1/alpha/accounts/${top.address}`, 'internal')).json()) as { data: Account };
      const [sql] = await t.service.db.query('api/alpha-account', { protocol: 'alpha', address: top.address });
      expect(one.data).toEqual(sql);
      // a second sorted order, patched alongside the first after each append
      const byPositions = (await (await t.get('/v1/alpha/accounts/search?sort_by=positions&order=asc&limit=100', 'internal')).json()) as { data: Account[]; pagination: { total: number } };
      const wantPositions = await expected(0, 100, 'positions', 1);
      expect(byPositions.data, `round ${round} positions asc`).toEqual(wantPositions.data);
      expect(byPositions.pagination.total).toBe(wantPositions.total);
      // more fills: volumes, trades and new accounts change
      day += 86_400_000;
      for (const batch of sim.advance(day)) await t.service.append(batch);
    }
  }, 60_000);

  it("every order stays the SQL's through patches, and 14 finds every account, new ones included", async () => {
    const index = new AccountsIndex(t.service);
    const fields = { net_pnl: 'net_pnl_usd', volume: 'volume_usd', win_rate: 'win_rate', positions: 'positions', current_notional: 'open_notional_usd' } as const;
    const orders = async () => {
      for (const [sortBy, field] of Object.entries(fields) as [keyof typeof fields, string][]) {
        for (const order of ['asc', 'desc'] as const) {
          const all = await servedAccounts();
          const dir = order === 'asc' ? 1 : -1;
          const want = all.sort((a, b) => ((a[field] as number) - (b[field] as number)) * dir || (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
          const got = await index.search({ sortBy, order, minTrades: null, hasActive: null, search: null, offset: 0, limit: 1e6 });
          expect(got.rows, `${sortBy} ${order}`).toEqual(want);
        }
      }
    };
    await orders(); // loaded
    let day = Date.UTC(2026, 3, 27);
    for (let round = 0; round < 2; round++) {
      const before = new Set((await servedAccounts()).map((a) => a.address));
      // a few hours at a time: each append touches tens of accounts (patched, not reloaded)
      day += 4 * 3_600_000;
      for (const batch of sim.advance(day)) await t.service.append(batch);
      await orders();
      const all = await servedAccounts();
      for (const a of all) expect(index.peek(a.address), a.address).toEqual(a);
      expect(index.peek('NoSuchAddress1111111111111111111111111111111')).toBeNull();
      if (round === 1)
        expect(
          all.some((a) => !before.has(a.address)),
          'a new account appeared',
        ).toBe(true);
    }
  }, 60_000);

  it('reads the changed accounts back from the derived state when the append could not hand them over', async () => {
    const index = new AccountsIndex(t.service);
    const search = () => index.search({ sortBy: 'volume', order: 'desc', minTrades: null, hasActive: null, search: null, offset: 0, limit: 1e6 });
    await search(); // loaded: the next alpha append patches it
    const db = t.service.db;
    const write = db.write.bind(db);
    let failed = 0;
    db.write = (fn) =>
      write((w) => {
        const rows = w.rows.bind(w);
        w.rows = (sql, params) => (sql.includes("alpha_account_held('batch_accounts')") ? (failed++, Promise.reject(new Error('injected'))) : rows(sql, params));
        return fn(w);
      });
    try {
      for (const batch of sim.advance(Date.UTC(2026, 3, 28, 6))) await t.service.append(batch);
    } finally {
      db.write = write;
    }
    expect(failed).toBeGreaterThan(0);
    const all = await servedAccounts();
    const want = all.sort((a, b) => b.volume_usd - a.volume_usd || (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
    expect((await search()).rows).toEqual(want);
  });

  it("every order built at load (ties broken by address rank) is the SQL's order", async () => {
    const index = new AccountsIndex(t.service);
    const all = await servedAccounts();
    const fields = { net_pnl: 'net_pnl_usd', volume: 'volume_usd', win_rate: 'win_rate', positions: 'positions', current_notional: 'open_notional_usd' } as const;
    for (const [sortBy, field] of Object.entries(fields) as [keyof typeof fields, string][]) {
      for (const order of ['asc', 'desc'] as const) {
        const dir = order === 'asc' ? 1 : -1;
        const want = [...all].sort((a, b) => ((a[field] as number) - (b[field] as number)) * dir || (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
        const got = await index.search({ sortBy, order, minTrades: null, hasActive: null, search: null, offset: 0, limit: 1e6 });
        expect(
          got.rows.map((r) => r.address),
          `${sortBy} ${order}`,
        ).toEqual(want.map((a) => a.address));
      }
    }
    // ties exist, so the address tie-break is exercised
    expect(new Set(all.map((a) => a.positions)).size).toBeLessThan(all.length);
  });

  it('keeps the loaded snapshot across appends without alpha fills, drops it on an alpha fill', async () => {
    const index = new AccountsIndex(t.service);
    const { rows } = await index.search({ sortBy: 'volume', order: 'desc', minTrades: null, hasActive: null, search: null, offset: 0, limit: 1 });
    const address = rows[0]!.address as string;
    expect(index.peek(address)).toEqual(rows[0]);
    const at = NOW - 60_000;
    const beta = 'Beta1111111111111111111111111111111111111111';
    await t.service.append({
      fills: [fill({ protocol: 'beta', time: at, tx: 'idx-beta-1', position_key: 'IDXB', address: beta, market: 'SOL-PERP', market_variant: null })],
      marketSnapshots: [marketSnapshot({ time: at })],
      positionSnapshots: [positionSnapshot({ time: at, position_key: 'IDXB', protocol: 'beta' })],
    });
    expect(index.peek(address), 'beta fills and snapshots do not touch alpha accounts').toEqual(rows[0]);
    await t.service.append({ fills: [fill({ time: at, tx: 'idx-alpha-1', position_key: 'IDXA', address })], marketSnapshots: [], positionSnapshots: [] });
    expect(index.peek(address), 'an alpha fill makes it wait for the patch').toBeUndefined();
    const [sql] = await t.service.db.query('api/alpha-account', { protocol: 'alpha', address });
    const again = await index.search({ sortBy: 'volume', order: 'desc', minTrades: null, hasActive: null, search: address, offset: 0, limit: 1 });
    expect(again.rows[0]).toEqual(sql);
    // the fill opened a new position of that address
    expect(sql!.positions).toBe((rows[0]!.positions as number) + 1);
    expect(sql!.open_positions).toBe((rows[0]!.open_positions as number) + 1);
    expect(index.peek(address), 'the patched snapshot is current').toEqual(sql);
    // a new address appears in the patched snapshot
    const newcomer = 'NewAcct111111111111111111111111111111111111';
    await t.service.append({ fills: [fill({ time: at + 1000, tx: 'idx-alpha-2', position_key: 'IDXN', address: newcomer })], marketSnapshots: [], positionSnapshots: [] });
    const found = await index.search({ sortBy: 'volume', order: 'desc', minTrades: null, hasActive: null, search: 'newacct', offset: 0, limit: 5 });
    expect(found.rows.map((r) => r.address)).toEqual([newcomer]);
    const all = await servedAccounts();
    const whole = await index.search({ sortBy: 'volume', order: 'desc', minTrades: null, hasActive: null, search: null, offset: 0, limit: 1e6 });
    expect(whole.total).toBe(all.length);
    expect(whole.rows).toEqual([...all].sort((a, b) => b.volume_usd - a.volume_usd || (a.address < b.address ? -1 : a.address > b.address ? 1 : 0)));
  });
  it("a prefix search (a binary search, then the order's comparator) equals the SQL's rows filtered, loaded and patched", async () => {
    const index = new AccountsIndex(t.service);
    const fields = { net_pnl: 'net_pnl_usd', volume: 'volume_usd', win_rate: 'win_rate', positions: 'positions', current_notional: 'open_notional_usd' } as const;
    const check = async (label: string, prefixes: string[]): Promise<void> => {
      const all = await servedAccounts();
      for (const prefix of prefixes) {
        for (const [sortBy, field] of Object.entries(fields) as [keyof typeof fields, string][]) {
          for (const order of ['asc', 'desc'] as const) {
            for (const [minTrades, hasActive, offset, limit] of [
              [null, null, 0, 1e6],
              [1, null, 1, 3],
              [null, true, 0, 2],
              [2, false, 0, 1e6],
            ] as const) {
              const dir = order === 'asc' ? 1 : -1;
              const want = all
                .filter((a) => a.address.toLowerCase().startsWith(prefix.toLowerCase()))
                .filter((a) => minTrades === null || a.trades >= minTrades)
                .filter((a) => hasActive === null || (a.open_positions as number) > 0 === hasActive)
                .sort((a, b) => ((a[field] as number) - (b[field] as number)) * dir || (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
              const got = await index.search({ sortBy, order, minTrades, hasActive, search: prefix, offset, limit });
              const what = `${label}: ${prefix} ${sortBy} ${order} ${minTrades} ${hasActive} ${offset}`;
              expect(got.total, what).toBe(want.length);
              expect(got.rows, what).toEqual(want.slice(offset, offset + limit));
            }
          }
        }
      }
    };
    const all = await servedAccounts();
    // one-letter prefixes match many accounts (the comparator's order is checked on many rows), in both cases
    const firsts = [...new Set(all.map((a) => a.address[0]!))].slice(0, 4);
    const base = all[0]!.address;
    const prefixes = [...firsts, ...firsts.map((c) => c.toLowerCase()), base.slice(0, 8), base.slice(0, 8).toUpperCase(), 'zzzzzzzz'];
    await check('loaded', prefixes);
    // a patch: an existing account changes, and a new one sorts right next to it by lower-cased address
    const newcomer = `${base.slice(0, 20)}${base[20] === 'x' ? 'y' : 'x'}${base.slice(21)}`;
    // and two more, far apart in key order (each insert's place must hold as the others go in)
    const [early, late] = [all[Math.floor(all.length / 4)]!.address, all[all.length - 1]!.address].map((a) => `${a.slice(0, 20)}${a[20] === 'x' ? 'y' : 'x'}${a.slice(21)}`);
    const at = NOW - 30_000;
    await t.service.append({
      fills: [
        fill({ time: at, tx: 'idx-prefix-1', position_key: 'IDXP1', address: base }),
        fill({ time: at, tx: 'idx-prefix-2', position_key: 'IDXP2', address: newcomer }),
        fill({ time: at, tx: 'idx-prefix-3', position_key: 'IDXP3', address: late! }),
        fill({ time: at, tx: 'idx-prefix-4', position_key: 'IDXP4', address: early! }),
      ],
      marketSnapshots: [],
      positionSnapshots: [],
    });
    await check('patched', [...prefixes, base.slice(0, 20).toLowerCase(), early!.slice(0, 20), late!.slice(0, 20).toLowerCase()]);
    expect((await index.search({ sortBy: 'volume', order: 'desc', minTrades: null, hasActive: null, search: base.slice(0, 20), offset: 0, limit: 10 })).total).toBe(2);
  });

  it("12: the snapshot's totals answer as the SQL's, through loads and patches, whales past 2^53 micro-dollars included", async () => {
    const index = new AccountsIndex(t.service);
    const db = t.service.db;
    const query = db.query.bind(db);
    let totalsQueries = 0;
    db.query = (name, params) => (name === 'read/accounts/alpha-accounts-totals' && totalsQueries++, query(name, params));
    const fromSql = async () => totalsFromSql((await query('read/accounts/alpha-accounts-totals', { protocol: 'alpha' }))[0]!);
    // the totals exactly, and the summary made of them
    const same = async (what: string) => {
      const [got, want] = [await index.totals(), await fromSql()];
      expect(got, what).toEqual(want);
      expect(summaryOf(got), what).toEqual(summaryOf(want));
    };
    try {
      // no snapshot: the SQL answers (and starts no load); a search loads it
      await same('no snapshot');
      expect(totalsQueries).toBe(1);
      await index.search({ sortBy: 'volume', order: 'desc', minTrades: null, hasActive: null, search: null, offset: 0, limit: 1 });
      const whale = 'Whale11111111111111111111111111111111111111';
      const shark = 'Shark11111111111111111111111111111111111111';
      const at = Date.UTC(2026, 3, 28, 10, 30);
      const huge = { size_delta_usd: 31_234_567_890.123457, position_size_usd: 31_234_567_890.123457, collateral_delta_usd: 3e9, position_collateral_usd: 3e9 };
      const closing = { type: 'close' as const, size_delta_usd: -31_234_567_890.123457, position_size_usd: 0, collateral_delta_usd: -3e9, position_collateral_usd: 0 };
      const rounds = [
        // a small position beside the huge one: an odd number of micro-dollars past 2^53, which
        // the served double cannot give back
        [
          fill({ time: at, tx: 'sum-w1', position_key: 'SUMW', address: whale, ...huge }),
          fill({ time: at, tx: 'sum-w0', position_key: 'SUMX', address: whale, size_delta_usd: 1.000001, position_size_usd: 1.000001 }),
        ],
        [
          fill({ time: at + 1000, tx: 'sum-w2', position_key: 'SUMW', address: whale, ...closing, pnl_delta_usd: 987_654.321987 }),
          fill({ time: at + 1000, tx: 'sum-s1', position_key: 'SUMS', address: shark, side: 'short', ...huge, fee_usd: 0.000001 }),
        ],
        [fill({ time: at + 2000, tx: 'sum-s2', position_key: 'SUMS', address: shark, side: 'short', ...closing, pnl_delta_usd: -9_654_321_098.765433 })],
      ];
      for (const fills of rounds) {
        await t.service.append({ fills, marketSnapshots: [], positionSnapshots: [] });
        await same(fills[0]!.tx);
      }
      // and the simulator's appends of tens of accounts each (patches)
      for (const batch of sim.advance(Date.UTC(2026, 3, 28, 12))) {
        await t.service.append(batch);
        await same('simulated');
      }
      expect(totalsQueries, 'once loaded, the totals are kept in memory').toBe(1);
      const totals = await fromSql();
      expect(totals.volume > 2n ** 53n, 'the volume is past 2^53 micro-dollars').toBe(true);
      expect(totals.losses < -(2n ** 53n)).toBe(true);
    } finally {
      db.query = query;
    }
  }, 60_000);

  it('an opened index loads again by itself once bulk appends stop (no request waits for it)', async () => {
    const index = new AccountsIndex(t.service, 1500);
    index.open();
    await index.loaded();
    // this index's own loads: the test app's indexes read the same query when their quiet time ends
    const own = index as unknown as { load: () => Promise<unknown> };
    const load = own.load.bind(index);
    let loads = 0;
    own.load = () => (loads++, load());
    try {
      // two appends each touching more accounts than a patch takes: dropped, no load meanwhile
      const bulk = (tag: string, at: number) => ({
        fills: Array.from({ length: MAX_PATCH + 1 }, (_, i) =>
          fill({ time: at, tx: `bulk-${tag}-${i}`, position_key: `BULK${tag}${i}`, address: `Bulk${tag}${String(i).padStart(5, '0')}`.padEnd(44, '1') }),
        ),
        marketSnapshots: [],
        positionSnapshots: [],
      });
      await t.service.append(bulk('a', Date.UTC(2026, 3, 28, 13)));
      await t.service.append(bulk('b', Date.UTC(2026, 3, 28, 13, 1)));
      const newcomer = 'Bulkb00042'.padEnd(44, '1');
      expect(index.peek(newcomer), 'dropped: endpoint 14 asks DuckDB').toBeUndefined();
      await new Promise((r) => setTimeout(r, 200));
      expect(loads, 'the quiet time restarts with each bulk append').toBe(0);
      for (let i = 0; i < 250 && index.peek(newcomer) === undefined; i++) await new Promise((r) => setTimeout(r, 20));
      expect(loads).toBe(1);
      const [sql] = await t.service.db.query('api/alpha-account', { protocol: 'alpha', address: newcomer });
      expect(index.peek(newcomer)).toEqual(sql);
    } finally {
      own.load = load;
    }
  }, 60_000);
});
