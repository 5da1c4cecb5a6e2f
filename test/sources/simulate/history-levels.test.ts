import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Simulator } from '../../../server/sources/simulate/simulator.ts';
import { openTestApp, type TestApp } from '../../helpers/app.ts';

/**
 * The history endpoints read whole days and hours from the coarser derived tables (rollup_1d,
 * rollup_1h, oi_snapshot_1h, oi_snapshot_1d) and only the rest from the 5-minute ones.
 * Their answers at 1h / 4h / 1d must be exactly those of the 5-minute series of the same window,
 * re-bucketed: Σ of the 5-minute rows per bucket for volume and liquidations, the 5-minute row
 * holding the bucket's end for open interest. Windows start and end off every boundary, cross days,
 * and straddle the first market snapshots (day 11). Amounts compared in exact micro-dollars.
 */
const START = Date.UTC(2026, 3, 20);
const SNAPSHOTS_FROM = Date.UTC(2026, 4, 1);
const NOW = Date.UTC(2026, 4, 6, 12, 31, 7);
const M5 = 300_000;
const STEP: Record<string, number> = { '1h': 3_600_000, '4h': 14_400_000, '1d': 86_400_000 };
let t: TestApp;

beforeAll(async () => {
  const sim = new Simulator({ seed: 9, start: START, snapshotsFrom: SNAPSHOTS_FROM });
  t = await openTestApp({ now: NOW, batches: sim.advance(NOW) });
}, 60_000);
afterAll(() => t.close());

type Row = Record<string, number | string>;
async function rows(path: string): Promise<Row[]> {
  const res = await t.get(path, 'premium');
  expect(res.status, path).toBe(200);
  return ((await res.json()) as { data: Row[] }).data;
}
const micro = (usd: number | string): bigint => BigInt(Math.round(Number(usd) * 1e6));
const ms = (iso: number | string): number => Date.parse(String(iso));

/** Asserts that each interval's answer is the Σ of `fine` (time-ordered) per bucket, exactly. */
async function checkRebucketed(label: string, fine: Row[], fields: string[], coarseOf: (interval: string) => Promise<Row[]>, w: string): Promise<void> {
  for (const interval of ['1h', '4h', '1d']) {
    const step = STEP[interval]!;
    const expected = new Map<number, Record<string, bigint>>();
    for (const r of fine) {
      const b = Math.floor(ms(r.time!) / step) * step;
      const acc = expected.get(b) ?? Object.fromEntries(fields.map((f) => [f, 0n]));
      for (const f of fields) acc[f]! += f === 'count' ? BigInt(r[f] as number) : micro(r[f]!);
      expected.set(b, acc);
    }
    const coarse = await coarseOf(interval);
    const where = `${label} ${interval} ${w}`;
    expect(
      coarse.map((r) => ms(r.time!)),
      where,
    ).toEqual([...expected.keys()]);
    for (const r of coarse) {
      const want = expected.get(ms(r.time!))!;
      for (const f of fields) {
        const got = f === 'count' ? BigInt(r[f] as number) : micro(r[f]!);
        expect(got, `${where} ${r.time} ${f}`).toBe(want[f]);
      }
    }
  }
}

const WINDOWS = [
  'from=2026-04-21T07:13:20.500Z&to=2026-05-05T16:47:10Z',
  'from=2026-04-29T23:59:59Z&to=2026-05-02T00:00:01Z',
  'from=2026-05-01T00:02:00Z&to=2026-05-06T12:31:07Z',
  'from=2026-04-20T00:00:00Z&to=2026-05-06T09:00:00Z',
  'from=2026-05-03T10:20:00Z', // to = now (inside a 5-minute bucket)
];
const SCOPES = ['', '&market=SOL-PERP'];

describe('history at 1h / 4h / 1d equals the 5-minute series re-bucketed', () => {
  it('9 volume: Σ of the 5-minute rows per bucket', async () => {
    for (const w of WINDOWS)
      for (const scope of SCOPES) {
        const fine = await rows(`/v1/alpha/volume/history?interval=5m&${w}${scope}`);
        expect(fine.length, `${w}${scope}`).toBeGreaterThan(0);
        await checkRebucketed('9', fine, ['volume_usd', 'fees_usd'], (i) => rows(`/v1/alpha/volume/history?interval=${i}&${w}${scope}`), `${w}${scope}`);
      }
  });

  it('6 liquidations: Σ of the liquidation events (endpoint 5) per bucket', async () => {
    for (const w of WINDOWS)
      for (const scope of SCOPES) {
        // the raw events of the window, as 5-minute pieces in the history's shape
        const events: Row[] = [];
        let cursor = '';
        for (;;) {
          const res = await t.get(`/v1/alpha/liquidations/search?limit=500&${w}${scope}${cursor}`, 'premium');
          const body = (await res.json()) as { data: Row[]; next_cursor: string | null };
          events.push(...body.data);
          if (!body.next_cursor) break;
          cursor = `&cursor=${body.next_cursor}`;
        }
        expect(events.length, `${w}${scope}`).toBeGreaterThan(0);
        const fine = events
          .map((e) => ({
            time: e.time!,
            count: 1,
            fees_usd: e.liquidation_fee_usd!,
            long_usd: e.side === 'long' ? e.size_usd! : 0,
            short_usd: e.side === 'short' ? e.size_usd! : 0,
            total_usd: e.size_usd!,
          }))
          .sort((x, y) => ms(x.time) - ms(y.time));
        await checkRebucketed('6', fine, ['count', 'long_usd', 'short_usd', 'total_usd', 'fees_usd'], (i) => rows(`/v1/alpha/liquidations/history?interval=${i}&${w}${scope}`), `${w}${scope}`);
      }
  });

  it('8 open interest: each bucket is the 5-minute row that holds its end (or the window end)', async () => {
    for (const w of WINDOWS.slice(1))
      for (const scope of SCOPES) {
        const fine = await rows(`/v1/alpha/open-interest/history?interval=5m&${w}${scope}`);
        const at = new Map(fine.map((r) => [ms(r.time!), r]));
        const to = w.includes('&to=') ? ms(w.split('&to=')[1]!) : NOW;
        for (const interval of ['1h', '4h', '1d']) {
          const step = STEP[interval]!;
          const coarse = await rows(`/v1/alpha/open-interest/history?interval=${interval}&${w}${scope}`);
          const label = `8 ${interval} ${w}${scope}`;
          expect(coarse.length, label).toBeGreaterThan(0);
          for (const r of coarse) {
            const end = Math.min(ms(r.time!) + step, to);
            const five = at.get(Math.floor((end - 1) / M5) * M5);
            expect(five, `${label} ${r.time}`).toBeDefined();
            for (const f of ['long_usd', 'short_usd', 'total_usd']) {
              expect(micro(r[f]!), `${label} ${r.time} ${f}`).toBe(micro(five![f]!));
            }
          }
        }
      }
  });
});
