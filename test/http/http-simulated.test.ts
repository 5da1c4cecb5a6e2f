import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Simulator } from '../../server/sources/simulate/simulator.ts';
import { openTestApp, type TestApp } from '../helpers/app.ts';

/**
 * Properties of the API over a simulated journal (16 days, market snapshots from day 11): what
 * different endpoints say about the same data must agree. Premium key: full history.
 */
const START = Date.UTC(2026, 3, 20);
const SNAPSHOTS_FROM = Date.UTC(2026, 4, 1);
const NOW = Date.UTC(2026, 4, 6, 12, 30);
let t: TestApp;

beforeAll(async () => {
  const sim = new Simulator({ seed: 5, start: START, snapshotsFrom: SNAPSHOTS_FROM });
  t = await openTestApp({ now: NOW, batches: sim.advance(NOW) });
}, 60_000);
afterAll(() => t.close());

async function json(path: string): Promise<Record<string, unknown>> {
  const res = await t.get(path, 'premium');
  expect(res.status, path).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

/** Sums exactly at the contract's 6 decimals (money is rounded to micro-dollars on the wire). */
const micro = (usd: number): bigint => BigInt(Math.round(usd * 1e6));

describe('API properties on a simulated journal', () => {
  it('Σ account volume equals Σ volume history over all time', async () => {
    let offset = 0;
    let accounts = 0n;
    for (;;) {
      const page = await json(`/v1/alpha/accounts/search?limit=500&offset=${offset}`);
      const rows = page.data as { volume_usd: number }[];
      for (const r of rows) accounts += micro(r.volume_usd);
      offset += rows.length;
      if (rows.length < 500) break;
    }
    expect(offset).toBeGreaterThan(100);
    const hist = await json(`/v1/alpha/volume/history?interval=1d&from=2026-04-01&to=2026-05-07`);
    const history = (hist.data as { volume_usd: number }[]).reduce((s, r) => s + micro(r.volume_usd), 0n);
    expect(history).toBeGreaterThan(0n);
    // per-account rounding to 6 decimals can differ from per-day rounding by < 1 µUSD per row
    const tolerance = BigInt(offset + (hist.data as unknown[]).length);
    const diff = accounts > history ? accounts - history : history - accounts;
    expect(diff <= tolerance, `accounts ${accounts} vs history ${history}`).toBe(true);
  });

  it('protocol-wide open interest equals the sum of per-market open interest, bucket by bucket', async () => {
    const window = 'interval=4h&from=2026-04-25&to=2026-05-06T12:00:00Z';
    const all = (await json(`/v1/alpha/open-interest/history?${window}`)).data as { time: string; total_usd: number }[];
    const markets = (await json('/v1/alpha/markets')).markets as string[];
    const sum = new Map<string, bigint>();
    for (const m of markets) {
      const rows = (await json(`/v1/alpha/open-interest/history?${window}&market=${m}`)).data as { time: string; total_usd: number }[];
      for (const r of rows) sum.set(r.time, (sum.get(r.time) ?? 0n) + micro(r.total_usd));
    }
    expect(all.length).toBeGreaterThan(50);
    for (const r of all) {
      const diff = micro(r.total_usd) - (sum.get(r.time) ?? 0n);
      expect(diff <= BigInt(markets.length) && diff >= -BigInt(markets.length), r.time).toBe(true);
    }
  });

  it('every history row lies inside the effective [from, to) of its envelope', async () => {
    const paths = [
      '/v1/alpha/open-interest/history?interval=1h&from=2026-05-03T07:13:00Z&to=2026-05-05T02:07:00Z',
      '/v1/alpha/volume/history?interval=15m&from=2026-05-04T07:13:00Z&to=2026-05-05T02:07:00Z',
      '/v1/alpha/liquidations/history?interval=4h&from=2026-04-21T03:00:00Z',
      '/v1/alpha/funding-rates/history?market_variant=SOL%2FUSD%5BWSOL-USDC%5D&interval=1h&from=2026-05-02T10:30:00Z',
    ];
    const bucketMs: Record<string, number> = { '5m': 3e5, '15m': 9e5, '1h': 3.6e6, '4h': 1.44e7, '1d': 8.64e7 };
    for (const path of paths) {
      const body = await json(path);
      const from = Date.parse(body.from as string);
      const to = Date.parse(body.to as string);
      const rows = body.data as { time: string }[];
      expect(rows.length, path).toBeGreaterThan(0);
      let previous = -Infinity;
      for (const r of rows) {
        const start = Date.parse(r.time);
        expect(start + bucketMs[body.interval as string]! > from && start < to, `${path} ${r.time}`).toBe(true);
        expect(start > previous, 'oldest first, no repeats').toBe(true);
        previous = start;
      }
    }
  });

  it('open-positions stats equal the aggregates of open-positions search, per market and protocol-wide', async () => {
    for (const market of [null, 'SOL-PERP', 'BTC-PERP']) {
      const q = market ? `market=${market}&` : '';
      const rows: { side: string; current_size_usd: number; unrealized_pnl_usd: number; leverage: number | null }[] = [];
      for (let offset = 0; ; offset += 500) {
        const page = (await json(`/v1/alpha/open-positions/search?${q}limit=500&offset=${offset}`)).data as typeof rows;
        rows.push(...page);
        if (page.length < 500) break;
      }
      const stats = (await json(`/v1/alpha/open-positions/stats${market ? `?market=${market}` : ''}`)).data as Record<string, number | string | null>;
      const side = (s: string) => rows.filter((r) => r.side === s);
      const sum = (rs: typeof rows, f: (r: (typeof rows)[number]) => number) => rs.reduce((a, r) => a + micro(f(r)), 0n);
      expect(rows.length, String(market)).toBeGreaterThan(0);
      expect(stats).toMatchObject({ market, total_positions: rows.length, long_positions: side('long').length, short_positions: side('short').length });
      expect(micro(stats.long_notional_usd as number)).toBe(sum(side('long'), (r) => r.current_size_usd));
      expect(micro(stats.short_notional_usd as number)).toBe(sum(side('short'), (r) => r.current_size_usd));
      expect(micro(stats.long_upnl_usd as number)).toBe(sum(side('long'), (r) => r.unrealized_pnl_usd));
      expect(micro(stats.short_upnl_usd as number)).toBe(sum(side('short'), (r) => r.unrealized_pnl_usd));
      const leverages = rows.map((r) => r.leverage).filter((l): l is number => l !== null);
      expect(stats.avg_leverage as number).toBeCloseTo(leverages.reduce((a, l) => a + l, 0) / leverages.length, 9);
    }
  });
});
