/**
 * The response cache on history answers whose window moves with the clock (a defaulted `to`, a
 * `from` clamped to the plan floor: server/http/history-validity.ts): a hit is rendered at its own
 * clock, and as the clock walks across every edge that could change an answer (a fill or snapshot
 * entering at `to` or leaving at `from`, bucket and hour edges, the plan floor reaching a given
 * `from` or a fixed `to`, the bucket cap), each cached answer equals the uncached one, status
 * included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { H3 } from 'h3';
import { at, fill, marketSnapshot } from '../helpers/fixtures.ts';
import type { ResponseCache } from '../../server/cache/response-cache.ts';
import type { PlanName } from '../../server/keys/plans.ts';
import { openCacheFixture, type CacheFixture, type CachePair } from '../helpers/cache-pair.ts';

const NOW = at('2026-06-02T12:00:00Z');
const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;
const iso = (ms: number): string => new Date(ms).toISOString();
const V1 = encodeURIComponent('SOL/USD[WSOL-USDC]');
const A = 'Addr1111111111111111111111111111111111111111';

let now = NOW - 10 * M;
let pair: CachePair;
let cache: ResponseCache;
let cached: H3;
let plain: H3;
let fixture: CacheFixture;

/** Event times of the fixture (fills and market snapshots), some after the walk's start. */
const FILLS = [NOW - 3 * D + 7 * M, NOW - 2 * D, NOW - 30 * H, NOW - 26 * H, NOW - 2 * H - 30 * S, NOW - 4 * M, NOW + 3 * M + 17 * S];
const SNAPSHOTS = [NOW - 30 * D + 20 * M, NOW - 50 * M, NOW - 12 * M, NOW - M, NOW + 6 * M + 1];

beforeAll(async () => {
  const [f0, f1, f2, f3, f4, f5, f6] = FILLS as [number, number, number, number, number, number, number];
  // the limits' own clock moves a second per call: the walk's thousands of requests stay far below
  // any plan's rate limit (which would otherwise answer 429 to both apps alike)
  let tick = NOW;
  fixture = await openCacheFixture(
    () => now,
    {
      fills: [
        fill({ time: f0, position_key: 'P1', address: A }),
        fill({ time: f1, position_key: 'P1', address: A, type: 'increase', size_delta_usd: 500, position_size_usd: 1500 }),
        fill({ time: f2, position_key: 'P2', address: A, side: 'short' }),
        fill({
          time: f3,
          position_key: 'P2',
          address: A,
          side: 'short',
          type: 'liquidation',
          size_delta_usd: -1000,
          position_size_usd: 0,
          collateral_delta_usd: -100,
          position_collateral_usd: 0,
          liquidation_fee_usd: 4,
        }),
        fill({ time: f4, position_key: 'P3', address: A, market: 'BTC-PERP', market_variant: 'BTC/USD[USDC-USDC]', price: 60_000 }),
        fill({ time: f5, position_key: 'P1', address: A, type: 'decrease', size_delta_usd: -300, position_size_usd: 1200 }),
        fill({ time: f6, position_key: 'P4', address: A, size_delta_usd: 2000, position_size_usd: 2000 }),
      ],
      marketSnapshots: SNAPSHOTS.map((time, i) =>
        marketSnapshot({
          time,
          oi_long_usd: 1000 * (i + 1),
          oi_short_usd: 10 * i,
          funding_rate_long: 0.0001 * (i + 1),
          funding_rate_short: -0.0001 * i,
        }),
      ),
      positionSnapshots: [],
    },
    () => (tick += S),
  );
  ({ pair } = fixture);
  ({ cache, cached, plain } = pair);
});
afterAll(() => fixture?.close());

async function get(app: H3, path: string, plan: PlanName): Promise<string> {
  const res = await app.request(path, { headers: { 'x-api-key': pair.key(plan) } });
  return `${res.status} ${await res.text()}`;
}

/** [path, plan]: every history endpoint with `to` defaulted (`from` defaulted, given, clamped) or fixed with `from` clamped. */
const CASES: [string, PlanName][] = [
  ['/v1/alpha/volume/history?interval=5m', 'internal'],
  ['/v1/alpha/volume/history?interval=1h&market=SOL-PERP', 'internal'],
  [`/v1/alpha/volume/history?interval=15m&from=${iso(NOW - 2 * D - 1)}`, 'internal'],
  ['/v1/alpha/liquidations/history?interval=1h', 'internal'],
  ['/v1/alpha/liquidations/history?interval=4h', 'starter'],
  ['/v1/alpha/open-interest/history?interval=5m', 'internal'],
  ['/v1/alpha/open-interest/history?interval=1h&market=SOL-PERP', 'internal'],
  ['/v1/alpha/open-interest/history?interval=1d', 'starter'],
  [`/v1/alpha/funding-rates/history?market_variant=${V1}&interval=1h`, 'internal'],
  [`/v1/alpha/funding-rates/history?market_variant=${V1}&interval=1d`, 'internal'],
  // a given `from` that the starter floor (30 days) reaches a day later, and one near the 5m cap
  [`/v1/alpha/volume/history?interval=1d&from=${iso(NOW - 29 * D)}`, 'starter'],
  [`/v1/alpha/volume/history?interval=5m&from=${iso(NOW - 10_000 * 5 * M + 20 * M)}`, 'internal'],
  // a fixed `to` with `from` clamped to a moving floor (funding: 30 days on every plan; starter: 30),
  // one of which the floor reaches (then a 400)
  [`/v1/alpha/funding-rates/history?market_variant=${V1}&interval=1d&from=${iso(NOW - 100 * D)}&to=${iso(NOW - 10 * M)}`, 'internal'],
  [`/v1/alpha/volume/history?interval=1h&from=${iso(NOW - 40 * D)}&to=${iso(NOW - H + 7 * M)}`, 'starter'],
  [`/v1/alpha/liquidations/history?interval=1d&from=${iso(NOW - 40 * D)}&to=${iso(NOW - 5 * M)}`, 'starter'],
  [`/v1/alpha/open-interest/history?interval=1h&from=${iso(NOW - 40 * D)}&to=${iso(NOW - 5 * M)}`, 'starter'],
];

/** Clock values around every edge: event times and their exits for each span, bucket and hour edges. */
function walk(): number[] {
  // an edge at e changes an answer from e + 1 on: e itself must still hit, e + 1 must not be stale
  const spans = [0, D, 3 * D, 7 * D, 30 * D];
  const edges = new Set<number>();
  for (const e of [...FILLS, ...SNAPSHOTS, NOW - 29 * D, NOW - 2 * D - 1, NOW - H + 7 * M - 1]) {
    for (const s of spans) for (const d of [0, 1]) edges.add(e + s + d);
  }
  for (let t = NOW - 10 * M; t <= NOW + 25 * M; t += 5 * M) for (const d of [-1, 0, 1]) edges.add(t + d);
  // the hour of a 30-day-clamped `from` leaves the oldest snapshot's hour (funding reads whole hours)
  for (const d of [-1, 0, 1]) edges.add(NOW + H + d);
  edges.add(NOW + D + 3 * M);
  edges.add(NOW + 2 * D);
  return [...edges].filter((t) => t >= NOW - 10 * M && t <= NOW + 31 * D).sort((a, b) => a - b);
}

describe('response cache: history windows that end now', () => {
  it('every cached answer equals the uncached one at every clock of the walk, and many are hits', async () => {
    const times = walk();
    let hits = 0;
    try {
      for (const [step, t] of times.entries()) {
        now = t;
        for (const [path, plan] of CASES) {
          const before = cache.stats.hits;
          const answer = await get(cached, path, plan);
          const hit = cache.stats.hits > before;
          if (hit) hits += 1;
          // a hit is where staleness could hide: always checked; a computed answer (rendered by the
          // cache, not serialized by h3) every third step, to keep the test quick
          if (hit || step % 3 === 0) expect(answer, `${path} (${plan}) at ${iso(t)}${hit ? ', a hit' : ''}`).toBe(await get(plain, path, plan));
        }
      }
    } finally {
      now = NOW;
    }
    // most steps move no edge of a given answer: those are hits, rendered at the step's clock
    expect(hits).toBeGreaterThan(times.length * CASES.length * 0.3);
  });

  it('a hit echoes its own clock as `to` (and a moving `from`), with the same data', async () => {
    const path = '/v1/alpha/volume/history?interval=1h';
    try {
      now = NOW + 10 * D + 17 * M; // off an hour edge (on one, the answer would hold for that instant only)
      const first = JSON.parse((await get(cached, path, 'internal')).slice(4));
      const hits = cache.stats.hits;
      now += 1234;
      const second = JSON.parse((await get(cached, path, 'internal')).slice(4));
      expect(cache.stats.hits).toBe(hits + 1);
      expect(second.to).toBe(iso(now));
      expect(second.from).toBe(iso(now - 7 * D));
      expect(second.data).toEqual(first.data);
    } finally {
      now = NOW;
    }
  });
});
