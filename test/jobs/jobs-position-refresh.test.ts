import { afterEach, describe, expect, it } from 'vitest';
import { computeRefresh, refreshPositions } from '../../jobs/position-refresh.ts';
import type { IncomingBatch, IncomingPositionSnapshot } from '../../server/journal/rows.ts';
import { openService } from '../../server/service.ts';
import { Simulator } from '../../server/sources/simulate/simulator.ts';
import { openTestApp, type TestApp } from '../helpers/app.ts';
import { countSqlRuns } from '../helpers/sql-runs.ts';
import { at, fill, marketSnapshot, positionSnapshot, tempDataDir, tempService } from '../helpers/fixtures.ts';

const W = { market: 'SOL-PERP', market_variant: 'SOL/USD[WSOL-USDC]' };
const BETA = { protocol: 'beta' as const, market: 'SOL-PERP', market_variant: null };
const T0 = at('2026-06-01T10:00:00Z');
const T1 = at('2026-06-01T11:00:00Z');
const T2 = at('2026-06-01T12:00:00Z');

/**
 * L: alpha long 1000 USDC-collateral 100 opened 10:00:30; S: alpha short 2000 with 4 WSOL (400 at
 * 100) opened 10:00:30; B: beta long 1000/100 opened 10:00:30; O: alpha long 1000/100 opened on
 * 05-30 (no market snapshot then) with a poll at 11:00 carrying borrowing 2; N: opened 05-30 with no
 * snapshot at all (cannot be re-marked); F: opened 12:00:10, after the latest market snapshot.
 * Market (WSOL-USDC): 10:00 cum b/fp/fe long 0.01/0.002/0.0005, short 0/0.001/0; 11:00 long b 0.02;
 * 12:00 price 110, OI 6000/3000, long 0.03/0.005/0.0015, short 0/0.004/0.002. Beta: long b 0.001 → 0.004, price 120.
 */
function journal(): IncomingBatch[] {
  const open = (over: Parameters<typeof fill>[0]) => fill({ type: 'open', time: T0 + 30_000, ...W, ...over });
  return [
    {
      fills: [
        open({ time: at('2026-05-30T08:00:00Z'), position_key: 'O' }),
        open({ time: at('2026-05-30T08:00:00Z'), position_key: 'N', address: 'AddrN111111111111111111111111111111111111111' }),
        open({ position_key: 'L' }),
        open({ position_key: 'S', side: 'short', size_delta_usd: 2000, position_size_usd: 2000, collateral_delta_usd: 400, position_collateral_usd: 400, collateral_token: 'WSOL' }),
        open({ position_key: 'B', ...BETA, collateral_token: 'SOL' }),
        open({ time: T2 + 10_000, position_key: 'F' }),
      ],
      marketSnapshots: [
        marketSnapshot({ time: T0, ...W, cum_borrowing_long: 0.01, cum_funding_paid_long: 0.002, cum_funding_earned_long: 0.0005, cum_funding_paid_short: 0.001 }),
        marketSnapshot({ time: T0, ...BETA, cum_borrowing_long: 0.001 }),
        marketSnapshot({ time: T1, ...W, cum_borrowing_long: 0.02, cum_funding_paid_long: 0.004, cum_funding_earned_long: 0.001 }),
        marketSnapshot({
          time: T2,
          ...W,
          index_price: 110,
          oi_long_usd: 6000,
          oi_short_usd: 3000,
          cum_borrowing_long: 0.03,
          cum_funding_paid_long: 0.005,
          cum_funding_earned_long: 0.0015,
          cum_funding_paid_short: 0.004,
          cum_funding_earned_short: 0.002,
        }),
        marketSnapshot({ time: T2, ...BETA, index_price: 120, cum_borrowing_long: 0.004 }),
      ],
      positionSnapshots: [positionSnapshot({ time: T1, position_key: 'O', source: 'poll', unsettled_borrowing_usd: 2, unsettled_funding_usd: 1, mark_price: 100 })],
    },
  ];
}

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('full position refresh', () => {
  it('re-marks open positions with known unsettled amounts, collateral and liquidation prices', async () => {
    app = await openTestApp({ now: T2 + 60_000, batches: journal() });
    const { rows, skipped } = await computeRefresh(app.service);
    expect(skipped).toBe(1); // N
    const by = Object.fromEntries(rows.map((r) => [r.position_key, r]));
    expect(Object.keys(by).sort()).toEqual(['B', 'L', 'O', 'S']); // F's fill is newer than the market state
    const common = { time: T2, source: 'poll' };
    // L: 1000 × (0.03 − 0.01) etc.; closing the long improves the balance (fee 0.05 %): due 0.5 + 20 + 3,
    // threshold 5: liq = 100 × (1000 + 5 + 23.5 − 100) / 1000
    expect(by.L).toMatchObject({ ...common, protocol: 'alpha', size_usd: 1000, collateral_usd: 100, unsettled_borrowing_usd: 20, unsettled_funding_usd: 3, claimable_funding_usd: 1, mark_price: 110 });
    expect(by.L!.liquidation_price).toBeCloseTo(92.85, 9);
    // S: 4 WSOL at 110 = 440; funding 2000 × 0.003, claimable 2000 × 0.002; closing worsens (0.07 %: 1.4),
    // threshold 10: liq = (2000 − 10 − 7.4) / (2000 / 100 − 4)
    expect(by.S).toMatchObject({ ...common, size_usd: 2000, collateral_usd: 440, unsettled_borrowing_usd: 0, unsettled_funding_usd: 6, claimable_funding_usd: 4, mark_price: 110 });
    expect(by.S!.liquidation_price).toBeCloseTo(123.9125, 9);
    // B: borrowing 1000 × 0.003 = 3; fee 0.6 + 1000² / 1.25e10; room = 100 − 2 − 3.60008
    expect(by.B).toMatchObject({ ...common, protocol: 'beta', collateral_usd: 100, unsettled_borrowing_usd: 3, unsettled_funding_usd: 0, claimable_funding_usd: 0, mark_price: 120 });
    expect(by.B!.liquidation_price).toBeCloseTo(90.560008, 9);
    // O: from its 11:00 poll: 2 + 1000 × (0.03 − 0.02), 1 + 1000 × (0.005 − 0.004), 0 + 1000 × (0.0015 − 0.001)
    expect(by.O).toMatchObject({ ...common, unsettled_borrowing_usd: 12, unsettled_funding_usd: 2, claimable_funding_usd: 0.5, collateral_usd: 100 });

    // appended through the append path: the API serves them as poll rows
    expect(await refreshPositions(app.service)).toEqual({ marked: 4, skipped: 1 });
    const res = await app.get('/v1/alpha/open-positions/search?limit=100', 'internal');
    const body = (await res.json()) as { data: Record<string, unknown>[]; meta: Record<string, unknown> };
    expect(body.meta.last_full_refresh).toBe('2026-06-01T12:00:00.000Z');
    const l = body.data.find((p) => p.unsettled_borrowing_usd === 20)!;
    expect(l).toMatchObject({ mark_price: 110, current_collateral_usd: 100, unsettled_funding_usd: 3 });
    // marked once per market state: a second run has nothing to do
    expect(await refreshPositions(app.service)).toEqual({ marked: 0, skipped: 1 });
  });

  it('computes nothing while nothing was appended since a refresh that had nothing to re-mark', async () => {
    app = await openTestApp({ now: T2 + 60_000, batches: journal() });
    const ran = countSqlRuns(app.service.db);
    const computed = () => ran.get('jobs/position-refresh-days') ?? 0;
    expect(await refreshPositions(app.service)).toEqual({ marked: 4, skipped: 1 });
    expect(await refreshPositions(app.service)).toEqual({ marked: 0, skipped: 1 }); // after its own append: computes
    expect(computed()).toBe(2);
    expect(await refreshPositions(app.service)).toEqual({ marked: 0, skipped: 1 });
    expect(computed()).toBe(2);
    // a newer market snapshot: L, S, O and F (opened after 12:00) are re-marked at it; B's market has none newer
    const t3 = T2 + 30 * 60_000;
    await app.service.append({ fills: [], positionSnapshots: [], marketSnapshots: [marketSnapshot({ time: t3, ...W, index_price: 111, cum_borrowing_long: 0.04 })] });
    expect(await refreshPositions(app.service)).toEqual({ marked: 4, skipped: 1 });
    expect(computed()).toBe(3);
    const { rows } = await computeRefresh(app.service);
    expect(rows).toEqual([]);
    // any append moves the derived state's position: a snapshot of a position the refresh leaves alone
    await refreshPositions(app.service);
    expect(await refreshPositions(app.service)).toEqual({ marked: 0, skipped: 1 });
    const computedBefore = computed();
    await app.service.append({ fills: [], marketSnapshots: [], positionSnapshots: [positionSnapshot({ time: t3, position_key: 'F', source: 'event', mark_price: 111 })] });
    await refreshPositions(app.service);
    expect(computed()).toBe(computedBefore + 1);
  });

  it('a restarted service computes nothing either, until something is appended', async () => {
    const { dir, cleanup } = tempDataDir();
    const open = () => openService({ dataDir: dir, clock: () => T2 + 60_000 });
    try {
      let service = await open();
      for (const batch of journal()) await service.append(batch);
      expect(await refreshPositions(service)).toEqual({ marked: 4, skipped: 1 });
      expect(await refreshPositions(service)).toEqual({ marked: 0, skipped: 1 }); // found nothing: stored
      await service.close();
      service = await open();
      try {
        const ran = countSqlRuns(service.db);
        const computed = () => ran.get('jobs/position-refresh-days') ?? 0;
        expect(await refreshPositions(service)).toEqual({ marked: 0, skipped: 1 });
        expect(computed()).toBe(0);
        // a newer market snapshot moves the position: computed again, and L, S, O and F re-marked
        await service.append({ fills: [], positionSnapshots: [], marketSnapshots: [marketSnapshot({ time: T2 + 30 * 60_000, ...W, index_price: 111, cum_borrowing_long: 0.04 })] });
        expect(await refreshPositions(service)).toEqual({ marked: 4, skipped: 1 });
        expect(computed()).toBe(1);
      } finally {
        await service.close();
      }
    } finally {
      cleanup();
    }
  });

  it("prices liquidation from the position's own entry, while every endpoint serves the contract's entry_price", async () => {
    // R, alpha long, USDC collateral 100: open 1000 @100, decrease −500 @110, increase +500 @130.
    // Served entry (contract §6, increases only): (1000 × 100 + 500 × 130) / 1500 = 110.
    // Own entry (by the size held, protocols.md): (500 × 100 + 500 × 130) / 1000 = 115.
    const R = 'AddrR111111111111111111111111111111111111111';
    const leg = (over: Parameters<typeof fill>[0]) => fill({ ...W, position_key: 'R', address: R, collateral_delta_usd: 0, position_collateral_usd: 100, ...over });
    const batches: IncomingBatch[] = [
      {
        fills: [
          leg({ time: T0 + 30_000, type: 'open', collateral_delta_usd: 100, entry_price: 100, position_entry_price: 100 }),
          leg({ time: T1, type: 'decrease', size_delta_usd: -500, position_size_usd: 500, price: 110, index_price: 110, pnl_delta_usd: 50, entry_price: 100, position_entry_price: 100 }),
          leg({ time: T2 - 30_000, type: 'increase', size_delta_usd: 500, position_size_usd: 1000, price: 130, index_price: 130, entry_price: 110, position_entry_price: 115 }),
        ],
        // zero settlement factors and open interest: nothing pending, the close worsens the balance (0.07 %)
        marketSnapshots: [marketSnapshot({ time: T2 - 60_000, ...W, index_price: 130 }), marketSnapshot({ time: T2, ...W, index_price: 120 })],
        positionSnapshots: [],
      },
    ];
    app = await openTestApp({ now: T2 + 60_000, batches });
    // due 0.7, threshold max(1000 × 0.5 %, 1) = 5: liq = entry × (1000 + 5 + 0.7 − 100) / 1000, by the own entry 115
    // (by the served 110 it would be 99.627)
    expect(await refreshPositions(app.service)).toEqual({ marked: 1, skipped: 0 });
    const get = async (path: string) => ((await (await app!.get(path, 'internal')).json()) as { data: Record<string, unknown>[] & Record<string, unknown> }).data;
    const [open] = await get('/v1/alpha/open-positions/search?limit=10');
    expect(open).toMatchObject({ address: R, entry_price: 110, mark_price: 120 });
    expect(open!.liquidation_price).toBeCloseTo(104.1555, 9);
    const id = open!.position_id as number;
    const detail = await get(`/v1/alpha/positions/${R}/${id}`);
    expect(detail).toMatchObject({ entry_price: 110, status: 'open' });
    expect(detail.liquidation_price).toBeCloseTo(104.1555, 9);
    // the fill frames (GET /v1/alpha/fills rows are the stream's data frames) and the lifecycle's timeline
    const frames = await get(`/v1/alpha/fills?address=${R}&limit=10`);
    expect(frames.map((f) => [f.type, f.entry_price])).toEqual([
      ['increase', 110],
      ['decrease', 100],
      ['open', 100],
    ]);
    expect(frames.every((f) => !('position_entry_price' in f))).toBe(true);
    const timeline = await get(`/v1/alpha/positions/${R}/${id}/lifecycle?limit=10`);
    expect(timeline.map((f) => f.entry_price)).toEqual([100, 100, 110]);
  });

  it('agrees with the simulator’s own poll snapshots', async () => {
    const t = await tempService(Date.UTC(2026, 4, 3));
    try {
      const sim = new Simulator({ seed: 7, start: Date.UTC(2026, 4, 1), snapshotsFrom: Date.UTC(2026, 4, 1) });
      const polls: IncomingPositionSnapshot[] = [];
      for (const b of sim.advance(Date.UTC(2026, 4, 2))) {
        polls.push(...b.positionSnapshots.filter((p) => p.source === 'poll'));
        await t.service.append({ ...b, positionSnapshots: b.positionSnapshots.filter((p) => p.source !== 'poll') });
      }
      expect(polls.length).toBeGreaterThan(100); // the 23:59 polls of 05-01
      const { rows, skipped } = await computeRefresh(t.service);
      expect(skipped).toBe(0);
      expect(rows.length).toBeGreaterThan(polls.length * 0.9); // all but positions with a fill in 23:59
      const simByKey = new Map(polls.map((p) => [`${p.protocol}:${p.position_key}`, p]));
      let compared = 0;
      for (const r of rows) {
        const s = simByKey.get(`${r.protocol}:${r.position_key}`);
        expect(s, r.position_key).toBeDefined();
        expect(r.time).toBe(s!.time);
        expect(r.size_usd).toBe(s!.size_usd);
        expect(r.mark_price).toBe(s!.mark_price);
        expect(r.collateral_usd).toBeCloseTo(s!.collateral_usd, 5);
        expect(r.unsettled_borrowing_usd).toBeCloseTo(s!.unsettled_borrowing_usd, 6);
        expect(r.unsettled_funding_usd).toBeCloseTo(s!.unsettled_funding_usd, 6);
        expect(r.claimable_funding_usd).toBeCloseTo(s!.claimable_funding_usd, 6);
        if (s!.liquidation_price === null) expect(r.liquidation_price).toBeNull();
        else expect(r.liquidation_price! / s!.liquidation_price).toBeCloseTo(1, 9);
        compared++;
      }
      expect(compared).toBe(rows.length);
    } finally {
      await t.cleanup();
    }
  });
});
