/**
 * Which appends a cached answer survives (server/cache/footprint.ts): an append keeps the
 * answers of addresses it has no fill of (`GET /v1/alpha/accounts/{address}`, its history, the
 * lifecycle timeline, and `GET /v1/alpha/positions/{address}/{id}` once a lifecycle is no longer
 * open) and of windows that end before its fills and market snapshots; it drops everything else.
 * After every kind of append, every answer (cached, then repeated) equals the uncached one, and the
 * answers expected to survive are hits while the others are computed again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { H3 } from 'h3';
import { at, fill, marketSnapshot, positionSnapshot } from '../helpers/fixtures.ts';
import type { ResponseCache } from '../../server/cache/response-cache.ts';
import type { IncomingBatch } from '../../server/journal/rows.ts';
import type { PlanName } from '../../server/keys/plans.ts';
import type { Service } from '../../server/service.ts';
import { openCacheFixture, type CacheFixture, type CachePair } from '../helpers/cache-pair.ts';

const NOW = at('2026-06-02T12:00:00Z');
const MIN = 60_000;
const H = 3_600_000;
const D = 24 * H;
const iso = (ms: number): string => new Date(ms).toISOString();
const w = (from: number, to: number): string => `from=${iso(from)}&to=${iso(to)}`;
const A = 'Addr1111111111111111111111111111111111111111';
const B = 'Bddr1111111111111111111111111111111111111111';
const C = 'Cddr1111111111111111111111111111111111111111';
const V1 = encodeURIComponent('SOL/USD[WSOL-USDC]');

const closeOf = { type: 'close', size_delta_usd: -1000, position_size_usd: 0, collateral_delta_usd: -100, position_collateral_usd: 0, pnl_delta_usd: 25 } as const;

let fixture: CacheFixture;
let service: Service;
let pair: CachePair;
let cache: ResponseCache;
let cached: H3;
let plain: H3;

beforeAll(async () => {
  // lifecycle ids in time order: 1 = A's closed P1, 2 = B's open Q1, 3 = A's open P2
  fixture = await openCacheFixture(() => NOW, {
    fills: [
      fill({ time: NOW - 5 * D, position_key: 'P1', address: A }),
      fill({ time: NOW - 4 * D, position_key: 'P1', address: A, ...closeOf }),
      fill({ time: NOW - 2 * D, position_key: 'Q1', address: B, side: 'short' }),
      fill({ time: NOW - 3 * H, position_key: 'P2', address: A }),
    ],
    marketSnapshots: [marketSnapshot({ time: NOW - 20 * D, funding_rate_long: 0.0001 }), marketSnapshot({ time: NOW - 2 * H, oi_long_usd: 1000, oi_short_usd: 1000, funding_rate_long: 0.0002 })],
    positionSnapshots: [positionSnapshot({ time: NOW - H, position_key: 'Q1', mark_price: 99 })],
  });
  ({ service, pair } = fixture);
  ({ cache, cached, plain } = pair);
});
afterAll(() => fixture?.close());

async function get(app: H3, path: string, plan: PlanName = 'internal'): Promise<{ status: number; body: string }> {
  const res = await app.request(path, { headers: { 'x-api-key': pair.key(plan) } });
  return { status: res.status, body: await res.text() };
}

/** Answers of one address alone (declared by their routes). */
const OF_A = [`/v1/alpha/accounts/${A}`, `/v1/alpha/accounts/${A}/history`, `/v1/alpha/positions/${A}/1`, `/v1/alpha/positions/${A}/1/lifecycle`, `/v1/alpha/positions/${A}/3/lifecycle`];
const OF_B = [`/v1/alpha/accounts/${B}`, `/v1/alpha/accounts/${B}/history`, `/v1/alpha/positions/${B}/2/lifecycle`];
/** Fixed windows that end well before now (the bucket of `to` ends at NOW - 2 D + 1 h at the latest). */
const PAST = [
  `/v1/alpha/volume/history?interval=1h&${w(NOW - 3 * D, NOW - 2 * D)}`,
  `/v1/alpha/liquidations/history?interval=1d&${w(NOW - 10 * D, NOW - 3 * D)}`,
  `/v1/alpha/open-interest/history?interval=4h&${w(NOW - 6 * D, NOW - 3 * D)}`,
  `/v1/alpha/funding-rates/history?market_variant=${V1}&interval=1d&${w(NOW - 25 * D, NOW - 3 * D)}`,
  `/v1/alpha/liquidations/search?${w(NOW - 10 * D, NOW - 3 * D)}`,
];
/** Fixed windows that end now or an hour ago: any fill or market snapshot appended now moves them. */
const RECENT = [`/v1/alpha/open-interest/history?interval=1h&${w(NOW - 2 * D, NOW - H)}`, `/v1/alpha/volume/history?interval=1h&${w(NOW - D, NOW)}`];
/** Answers every append drops: current state, open lifecycles' live fields. */
const DROPPED = [
  '/v1/protocols/stats',
  '/v1/alpha/open-interest',
  '/v1/alpha/accounts/search?sort_by=volume',
  '/v1/alpha/open-positions/search',
  `/v1/alpha/positions/${A}/3`,
  `/v1/alpha/positions/${B}/2`,
];
const ALL = [...OF_A, ...OF_B, ...PAST, ...RECENT, ...DROPPED];

/** Every answer, cached and repeated, equals the uncached one (for two plans). */
async function allEqual(): Promise<void> {
  for (const plan of ['internal', 'premium'] as const) {
    for (const path of ALL) {
      const ref = await get(plain, path, plan);
      expect(ref.status, path).toBe(200);
      expect((await get(cached, path, plan)).body, `${plan} ${path}`).toBe(ref.body);
      expect((await get(cached, path, plan)).body, `${plan} ${path} again`).toBe(ref.body);
    }
  }
}

/** Appends `batch`, then tells which of `paths` are hits (kept) on their first request after it. */
async function keptAfter(batch: Partial<IncomingBatch>, paths = ALL): Promise<string[]> {
  await service.append({ fills: [], marketSnapshots: [], positionSnapshots: [], ...batch });
  const kept: string[] = [];
  for (const path of paths) {
    const hits = cache.stats.hits;
    await get(cached, path);
    if (cache.stats.hits > hits) kept.push(path);
  }
  return kept;
}

describe('response cache across appends', () => {
  it('keeps what an append cannot change, drops the rest, and every answer stays the uncached one', async () => {
    await allEqual();

    // a fill of another address now: the addresses' answers and the past windows stay
    expect(await keptAfter({ fills: [fill({ time: NOW - 30 * MIN, position_key: 'R1', address: C })] })).toEqual([...OF_A, ...OF_B, ...PAST]);
    await allEqual();

    // a market snapshot alone: the open lifecycles' live fields (18) move, nothing kept above does
    expect(await keptAfter({ marketSnapshots: [marketSnapshot({ time: NOW - MIN, index_price: 104, oi_long_usd: 1500 })] })).toEqual([...OF_A, ...OF_B, ...PAST]);
    await allEqual();

    // a snapshot of B's open position alone: no fill and no market snapshot, so no window moves
    expect(await keptAfter({ positionSnapshots: [positionSnapshot({ time: NOW - 30 * 1000, position_key: 'Q1', mark_price: 97, size_usd: 1000 })] })).toEqual([...OF_A, ...OF_B, ...PAST, ...RECENT]);
    await allEqual();

    // a fill of A: A's answers are computed again (its account and open lifecycle changed), B's stay
    const increased = { position_key: 'P2', address: A, type: 'increase', size_delta_usd: 500, position_size_usd: 1500 } as const;
    expect(await keptAfter({ fills: [fill({ time: NOW - 5 * MIN, ...increased })] })).toEqual([...OF_B, ...PAST]);
    await allEqual();

    // a fill that lands in the past (a backfill's): the windows whose buckets hold its time move
    const kept = await keptAfter({ fills: [fill({ time: NOW - 5 * D - 2 * H, position_key: 'R2', address: C })] });
    expect(kept).toEqual([...OF_A, ...OF_B]);
    await allEqual();
  });

  it('a window is kept up to the end of the bucket holding its `to`, and not past it', async () => {
    // the 1 h bucket of NOW - 2 D ends at NOW - 2 D + 1 h: a fill at that instant keeps the window,
    // one a millisecond earlier drops it
    const path = PAST[0]!;
    await get(cached, path);
    expect(await keptAfter({ fills: [fill({ time: NOW - 2 * D + H, position_key: 'R3', address: C })] }, [path])).toEqual([path]);
    expect((await get(cached, path)).body).toBe((await get(plain, path)).body);
    expect(await keptAfter({ fills: [fill({ time: NOW - 2 * D + H - 1, position_key: 'R4', address: C })] }, [path])).toEqual([]);
    expect((await get(cached, path)).body).toBe((await get(plain, path)).body);
  });

  it('a job that rewrote derived buckets drops every answer', async () => {
    for (const path of ALL) await get(cached, path);
    service.derivedChanged({ fromMs: NOW - D, toMs: NOW - D, marketSnapshots: false });
    const hits = cache.stats.hits;
    for (const path of ALL) await get(cached, path);
    expect(cache.stats.hits).toBe(hits);
    await allEqual();
  });
});
