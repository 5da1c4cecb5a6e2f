/**
 * The response cache (server/cache/response-cache.ts): a cached answer equals the uncached one for every
 * route, an append invalidates it, clock-dependent answers are not served past their validity,
 * and auth, rate limits and credits still apply to cached answers. Past its byte budget it drops
 * the entries used longest ago.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRouterParam, H3 } from 'h3';
import { at, fill, marketSnapshot, positionSnapshot } from '../helpers/fixtures.ts';
import { mountRoute } from '../../server/http/mount-route.ts';
import { defineRoute } from '../../server/http/routes/define.ts';
import { noQuery } from '../../server/http/params.ts';
import { ResponseCache } from '../../server/cache/response-cache.ts';
import type { KeyStore } from '../../server/keys/store.ts';
import type { PlanName } from '../../server/keys/plans.ts';
import type { Service } from '../../server/service.ts';
import { openCacheFixture, type CacheFixture, type CachePair } from '../helpers/cache-pair.ts';

const NOW = at('2026-06-02T12:00:00Z');
const H = 3_600_000;
const D = 24 * H;
const iso = (ms: number): string => new Date(ms).toISOString();
const A = 'Addr1111111111111111111111111111111111111111';
const B = 'Bddr1111111111111111111111111111111111111111';
const V1 = encodeURIComponent('SOL/USD[WSOL-USDC]');

let now = NOW;
let fixture: CacheFixture;
let service: Service;
let pair: CachePair;
let keys: KeyStore;
let cache: ResponseCache;
let cached: H3;
let plain: H3;

beforeAll(async () => {
  fixture = await openCacheFixture(() => now, {
    fills: [
      fill({ time: NOW - 40 * D, position_key: 'P0', address: B }),
      fill({
        time: NOW - 40 * D + H,
        position_key: 'P0',
        address: B,
        type: 'close',
        size_delta_usd: -1000,
        position_size_usd: 0,
        collateral_delta_usd: -100,
        position_collateral_usd: 0,
        pnl_delta_usd: 12,
      }),
      fill({ time: NOW - 5 * D, position_key: 'P1', address: A }),
      fill({ time: NOW - 2 * D, position_key: 'P2', address: B, side: 'short' }),
      fill({
        time: NOW - D,
        position_key: 'P2',
        address: B,
        side: 'short',
        type: 'liquidation',
        size_delta_usd: -1000,
        position_size_usd: 0,
        collateral_delta_usd: -100,
        position_collateral_usd: 0,
        liquidation_fee_usd: 4,
      }),
      fill({ time: NOW - 3 * H, position_key: 'P3', address: A, market: 'BTC-PERP', market_variant: 'BTC/USD[USDC-USDC]', price: 60_000 }),
      // beta: a closed lifecycle of A, a liquidated one of B
      fill({ time: NOW - 6 * D, protocol: 'beta', position_key: 'Q1', address: A, market_variant: null }),
      fill({
        time: NOW - 6 * D + H,
        protocol: 'beta',
        position_key: 'Q1',
        address: A,
        market_variant: null,
        type: 'close',
        size_delta_usd: -1000,
        position_size_usd: 0,
        collateral_delta_usd: -100,
        position_collateral_usd: 0,
        pnl_delta_usd: 7,
      }),
      fill({ time: NOW - 3 * D, protocol: 'beta', position_key: 'Q2', address: B, market_variant: null, side: 'short' }),
      fill({
        time: NOW - 2 * D,
        protocol: 'beta',
        position_key: 'Q2',
        address: B,
        market_variant: null,
        side: 'short',
        type: 'liquidation',
        size_delta_usd: -1000,
        position_size_usd: 0,
        collateral_delta_usd: -100,
        position_collateral_usd: 0,
        liquidation_fee_usd: 3,
      }),
    ],
    marketSnapshots: [
      marketSnapshot({ time: NOW - 20 * D, funding_rate_long: 0.0001 }),
      marketSnapshot({ time: NOW - 2 * H, oi_long_usd: 1000, oi_short_usd: 0, funding_rate_long: 0.0002 }),
      marketSnapshot({ time: NOW - 2 * H, protocol: 'beta', market_variant: null, oi_long_usd: 0, oi_short_usd: 0, funding_rate_long: -0.00001, funding_rate_short: -0.00002 }),
    ],
    positionSnapshots: [positionSnapshot({ time: NOW - H, position_key: 'P1', mark_price: 101, liquidation_price: 91 })],
  });
  ({ service, pair } = fixture);
  ({ keys, cache, cached, plain } = pair);
  const [row] = await service.db.querySql("SELECT position_id FROM lifecycles WHERE protocol = 'beta' AND address = $a", { a: A });
  betaId = String(row!.position_id);
  const [p1] = await service.db.querySql("SELECT position_id FROM lifecycles WHERE protocol = 'alpha' AND position_key = 'P1'");
  alphaId = String(p1!.position_id);
});
/** position_id of A's alpha lifecycle P1 */
let alphaId = '';
/** position_id of A's beta lifecycle */
let betaId = '';
afterAll(() => fixture?.close());

const key = (plan: PlanName): string => pair.key(plan);

async function get(app: H3, raw: string, plan: PlanName = 'internal'): Promise<{ status: number; body: string; headers: Headers }> {
  // the fixture's position ids (assigned at ingest, in time order across protocols)
  const path = raw.replaceAll('BETA_ID', betaId).replaceAll('ALPHA_ID', alphaId);
  const res = await app.request(path, { headers: { 'x-api-key': key(plan) } });
  return { status: res.status, body: await res.text(), headers: res.headers };
}

const w = (from: number, to: number): string => `from=${iso(from)}&to=${iso(to)}`;
/** One request per route (and the clamped ones with explicit windows, which are cacheable). */
const PATHS = [
  '/v1/protocols',
  '/v1/protocols/stats',
  '/v1/alpha/markets',
  '/v1/alpha/markets/stats',
  `/v1/alpha/liquidations/search?${w(NOW - 10 * D, NOW)}`,
  '/v1/alpha/liquidations/search?market=sol-perp',
  `/v1/alpha/liquidations/history?interval=1d&${w(NOW - 10 * D, NOW)}`,
  '/v1/alpha/open-interest',
  `/v1/alpha/open-interest/history?market=SOL-PERP&${w(NOW - 6 * D, NOW - H)}`,
  '/v1/alpha/open-interest/history',
  `/v1/alpha/volume/history?interval=4h&${w(NOW - 50 * D, NOW)}`,
  '/v1/alpha/funding-rates',
  `/v1/alpha/funding-rates/history?market_variant=${V1}&${w(NOW - 25 * D, NOW)}`,
  '/v1/alpha/accounts/stats',
  '/v1/alpha/accounts/search?sort_by=volume',
  `/v1/alpha/accounts/${A}`,
  `/v1/alpha/accounts/${B}/history`,
  '/v1/alpha/open-positions/search?sort_by=liq_proximity&order=asc',
  '/v1/alpha/open-positions/stats?market=SOL-PERP',
  `/v1/alpha/positions/${A}/ALPHA_ID`,
  `/v1/alpha/positions/${A}/ALPHA_ID/lifecycle`,
  '/v1/beta/markets',
  '/v1/beta/markets/stats',
  `/v1/beta/liquidations/search?${w(NOW - 10 * D, NOW)}`,
  '/v1/beta/liquidations/search?market=sol-perp',
  `/v1/beta/liquidations/history?interval=1d&${w(NOW - 10 * D, NOW)}`,
  '/v1/beta/open-interest',
  `/v1/beta/open-interest/history?market=SOL-PERP&${w(NOW - 6 * D, NOW - H)}`,
  '/v1/beta/open-interest/history',
  `/v1/beta/volume/history?interval=4h&${w(NOW - 50 * D, NOW)}`,
  '/v1/beta/funding-rates',
  `/v1/beta/funding-rates/history?market=SOL-PERP&${w(NOW - 25 * D, NOW)}`,
  '/v1/beta/accounts/stats',
  '/v1/beta/accounts/search?sort_by=volume',
  `/v1/beta/accounts/${A}`,
  `/v1/beta/accounts/${B}/history`,
  '/v1/beta/open-positions/search',
  '/v1/beta/open-positions/stats?market=SOL-PERP',
  `/v1/beta/positions/${A}/BETA_ID`,
  `/v1/beta/positions/${A}/BETA_ID/lifecycle`,
  `/v1/alpha/prices/history?market=SOL-PERP&${w(NOW - 6 * D, NOW - H)}`,
  `/v1/beta/prices/history?market=SOL-PERP&interval=1d&${w(NOW - 30 * D, NOW)}`,
  `/v1/alpha/fills?${w(NOW - 10 * D, NOW)}`,
  `/v1/beta/fills?address=${A}&${w(NOW - 10 * D, NOW - H)}`,
];

describe('response cache', () => {
  it('every route: the cached answer (first and repeated) equals the uncached one, for each plan', async () => {
    for (const plan of ['internal', 'starter', 'premium'] as const) {
      for (const path of PATHS) {
        const first = await get(cached, path, plan);
        const again = await get(cached, path, plan);
        const ref = await get(plain, path, plan);
        expect(first.status, path).toBe(200);
        expect(ref.status, path).toBe(200);
        expect(first.body, `${plan} ${path}`).toBe(ref.body);
        expect(again.body, `${plan} ${path}`).toBe(ref.body);
        expect(again.headers.get('content-type')).toBe(ref.headers.get('content-type'));
      }
    }
    expect(cache.stats.hits).toBeGreaterThan(30);
  });

  it('a repeated request with equivalent parameters is a hit, windows that end now included', async () => {
    const hits = cache.stats.hits;
    await get(cached, '/v1/alpha/open-positions/stats?market=SOL-PERP');
    await get(cached, '/v1/alpha/open-positions/stats?market=sol-perp');
    expect(cache.stats.hits).toBe(hits + 2);
    // clock-reading answers that declare how long they hold (test/cache/cache-moving-windows.test.ts
    // walks the history ones across their bounds): the 24 h stats, a default history window
    for (const path of ['/v1/alpha/markets/stats', '/v1/alpha/volume/history?interval=5m']) {
      await get(cached, path);
      const before = cache.stats.hits;
      await get(cached, path);
      expect(cache.stats.hits, path).toBe(before + 1);
    }
  });

  it('an append invalidates: the next answer includes the new fill and equals the uncached one', async () => {
    const path = `/v1/alpha/volume/history?interval=1d&${w(NOW - 3 * D, NOW)}`;
    const before = await get(cached, path);
    expect((await get(cached, path)).body).toBe(before.body);
    await service.append({ fills: [fill({ time: NOW - 30 * 60_000, position_key: 'P9', address: A, size_delta_usd: 777, position_size_usd: 777 })], marketSnapshots: [], positionSnapshots: [] });
    const after = await get(cached, path);
    expect(after.body).not.toBe(before.body);
    expect(after.body).toContain('777');
    expect(after.body).toBe((await get(plain, path)).body);
    // a snapshot-only append invalidates too (current state changes without a new fill)
    const oi = await get(cached, '/v1/alpha/open-interest');
    await service.append({ fills: [], marketSnapshots: [marketSnapshot({ time: NOW - 60_000, oi_long_usd: 4321 })], positionSnapshots: [] });
    const oi2 = await get(cached, '/v1/alpha/open-interest');
    expect(oi2.body).not.toBe(oi.body);
    expect(oi2.body).toBe((await get(plain, '/v1/alpha/open-interest')).body);
  });

  it('clock: clock-dependent answers stay equal to the uncached ones as time passes', async () => {
    const clamped = `/v1/alpha/funding-rates/history?market_variant=${V1}&interval=1d&${w(NOW - 25 * D, NOW)}`;
    const search = `/v1/alpha/liquidations/search?${w(NOW - 29 * D, NOW)}`;
    const paths = [clamped, search, ...PATHS];
    for (const p of paths) expect((await get(cached, p, 'starter')).status).toBe(200);
    try {
      // 6 days on: the funding floor passed `from` (now clamped), the starter liquidation floor too,
      // and the 24 h stats lost their fills
      now = NOW + 6 * D;
      for (const p of paths) expect((await get(cached, p, 'starter')).body, p).toBe((await get(plain, p, 'starter')).body);
      expect(JSON.parse((await get(cached, clamped, 'starter')).body).from).toBe(iso(now - 30 * D));
    } finally {
      now = NOW;
    }
  });

  it('declared bounds: the 24 h stats hold until a fill leaves their window, not a millisecond longer', async () => {
    // fills in [NOW - 24 h, NOW): the liquidation at NOW - D (the oldest), NOW - 3 h, and the
    // append test's NOW - 30 min; so an answer computed just before NOW holds until NOW inclusive
    const stats = ['/v1/protocols/stats', '/v1/alpha/markets/stats', '/v1/beta/markets/stats'];
    const same = async (t: number): Promise<string[]> => {
      now = t;
      const bodies: string[] = [];
      for (const p of stats) {
        const body = (await get(cached, p)).body;
        expect(body, `${p} at ${iso(t)}`).toBe((await get(plain, p)).body);
        bodies.push(body);
      }
      return bodies;
    };
    try {
      // the NOW - 30 min fill enters at NOW - 30 min + 1 ms
      await same(NOW - 40 * 60_000);
      let hits = cache.stats.hits;
      const before = await same(NOW - 30 * 60_000);
      expect(cache.stats.hits).toBe(hits + stats.length);
      expect((await same(NOW - 30 * 60_000 + 1))[0]).not.toBe(before[0]);
      await same(NOW - 1);
      hits = cache.stats.hits;
      const atBound = await same(NOW);
      expect(cache.stats.hits).toBe(hits + stats.length);
      const past = await same(NOW + 1); // the liquidation left: recomputed
      expect(past[0]).not.toBe(atBound[0]);
      expect(past[0]).toContain('"liquidations_24h_usd":0');
      hits = cache.stats.hits;
      await same(NOW + 21 * H); // the NOW - 3 h fill is still in: a hit
      expect(cache.stats.hits).toBe(hits + stats.length);
      const left = await same(NOW + 21 * H + 1); // the BTC fill left (alpha's volume; no BTC snapshot, so no BTC row in 4)
      expect(left[0]).not.toBe(past[0]);
      await same(NOW + 30 * D); // an empty window holds until an append
      hits = cache.stats.hits;
      await same(NOW + 300 * D);
      expect(cache.stats.hits).toBe(hits + stats.length);
    } finally {
      now = NOW;
    }
  });

  it('declared bounds: a liquidation search with a defaulted `to` holds until a liquidation enters or the plan floor passes a row', async () => {
    const path = '/v1/alpha/liquidations/search';
    const check = async (t: number): Promise<string> => {
      now = t;
      const body = (await get(cached, path, 'starter')).body;
      expect(body, `at ${iso(t)}`).toBe((await get(plain, path, 'starter')).body);
      return body;
    };
    try {
      // before the liquidation at NOW - D, it lies in the future: nothing is cached
      const misses = cache.stats.misses;
      const empty = await check(NOW - D - 1);
      await check(NOW - D - 1);
      expect(cache.stats.misses).toBe(misses + 2);
      expect(JSON.parse(empty).data).toEqual([]);
      expect(JSON.parse(await check(NOW - D)).data).toEqual([]);
      const one = await check(NOW - D + 1);
      expect(JSON.parse(one).data).toHaveLength(1);
      // the starter floor (30 days) passes it after NOW + 29 D
      const hits = cache.stats.hits;
      expect(await check(NOW + 29 * D)).toBe(one);
      expect(cache.stats.hits).toBe(hits + 1);
      expect(JSON.parse(await check(NOW + 29 * D + 1)).data).toEqual([]);
    } finally {
      now = NOW;
    }
  });

  it('auth, rate limits and credits apply to cached answers', async () => {
    const k = keys.create({ plan: 'trial', label: 'cache limits' });
    const hdr = { headers: { 'x-api-key': k.key } };
    const credits: number[] = [];
    for (let i = 0; i < 60; i++) {
      const res = await cached.request('/v1/alpha/markets', hdr);
      expect(res.status).toBe(200);
      credits.push(Number(res.headers.get('x-credits-remaining')));
    }
    expect(credits[59]).toBe(credits[0]! - 59);
    const limited = await cached.request('/v1/alpha/markets', hdr);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeTruthy();
    keys.revoke(k.record.id);
    expect((await cached.request('/v1/alpha/markets', hdr)).status).toBe(401);
    expect((await cached.request('/v1/alpha/markets')).status).toBe(401);
  });

  it('a route that reads the clock after an await turns the cache off instead of serving a stale answer', async () => {
    const own = new ResponseCache(service);
    const app = new H3();
    const late = defineRoute({
      path: '/late-clock',
      summary: 'test',
      cost: 1,
      query: noQuery,
      handle: async () => {
        await Promise.resolve();
        return { now: own.service.now() };
      },
    });
    mountRoute(app, late, keys, undefined, own);
    const a = JSON.parse((await get(app, '/late-clock')).body);
    now += 1;
    try {
      const b = JSON.parse((await get(app, '/late-clock')).body);
      expect(b.now).toBe(a.now + 1);
      expect(own.stats.hits).toBe(0);
    } finally {
      now = NOW;
    }
  });

  it('past its byte budget it drops the oldest entries, one served since it was stored or passed over after those that were not', async () => {
    const data = 'x'.repeat(400);
    // what one entry counts for: its body in UTF-16, its key (`/evict/a`, no query, no clamp), 64
    const size = 2 * JSON.stringify({ data }).length + 2 * '/evict/a\n[]\n'.length + 64;
    const own = new ResponseCache(service, { maxBytes: 8 * size + size / 2 }); // room for 8
    let computed: string[] = [];
    const app = new H3();
    mountRoute(
      app,
      defineRoute({
        path: '/evict/:id',
        summary: 'test',
        cost: 1,
        query: noQuery,
        handle: ({ event }) => {
          computed.push(getRouterParam(event, 'id')!);
          return { data };
        },
      }),
      keys,
      undefined,
      own,
    );
    const ask = async (ids: string): Promise<string[]> => {
      computed = [];
      for (const id of ids) expect((await get(app, `/evict/${id}`)).status).toBe(200);
      return computed;
    };
    expect(await ask('abcdefgh')).toEqual([...'abcdefgh']);
    expect(own.size()).toBe(8);
    expect(await ask('b')).toEqual([]); // kept
    expect(await ask('i')).toEqual(['i']); // one over: the oldest, a, goes
    expect(own.size()).toBe(8);
    expect(await ask('j')).toEqual(['j']); // b was served since it was stored: c goes, not b
    expect(await ask('b')).toEqual([]);
    expect(await ask('c')).toEqual(['c']);
    expect(await ask('a')).toEqual(['a']);
    expect(own.size()).toBe(8);
  });
});
