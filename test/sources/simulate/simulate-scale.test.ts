/**
 * The simulator's population across scales: scale 1 is pinned byte for byte (the demo data,
 * tests and docs rely on it), and above it tourists (server/sources/simulate/tourists.ts) add a
 * long tail of short-lived accounts, deterministically and split-invariantly.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { IncomingBatch, IncomingFill } from '../../../server/journal/rows.ts';
import { Simulator } from '../../../server/sources/simulate/simulator.ts';
import { walletAddress } from '../../../server/sources/simulate/ids.ts';
import { makeTourist, parseVisitRef, visitRef } from '../../../server/sources/simulate/tourists.ts';

const START = Date.UTC(2025, 2, 12);
const DAY = 86_400_000;
const digest = (x: unknown): string => createHash('sha256').update(JSON.stringify(x)).digest('hex');
const fillsOf = (bs: IncomingBatch[]): IncomingFill[] => bs.flatMap((b) => b.fills);

describe('simulator scale 1 is pinned', () => {
  it('seed 42, 8 days with market snapshots from day 6: the rows of the population model before tourists', () => {
    const batches = new Simulator({ seed: 42, scale: 1, snapshotsFrom: START + 6 * DAY }).advance(START + 8 * DAY);
    const fills = fillsOf(batches);
    // the position's own average entry after each fill, with the simulator's float operations
    const own = new Map<string, number>();
    const ownEntries = fills.map((f) => {
      const sizeBefore = Math.round(f.position_size_usd * 1e6) - Math.round(f.size_delta_usd * 1e6);
      const s = sizeBefore / 1e6;
      let e = own.get(f.position_key) ?? 0;
      if (f.size_delta_usd > 0) e = sizeBefore === 0 ? f.price : (s * e + f.size_delta_usd * f.price) / (s + f.size_delta_usd);
      own.set(f.position_key, e);
      return e;
    });
    const markets = batches.flatMap((b) => b.marketSnapshots);
    const positions = batches.flatMap((b) => b.positionSnapshots);
    expect([fills.length, markets.length, positions.length]).toEqual([10_121, 31_680, 10_489]);
    // computed with the simulator as of commit e11107e (before tourists), whose fills served the
    // position's own average entry (weighted by the size held) as entry_price and whose market
    // snapshots had no index_price_time / index_price_source (nor fills a position_entry_price):
    // with that field recomputed from the fills and those columns left out, every row is still the same
    expect(digest(fills.map(({ position_entry_price: _o, ...f }, i) => ({ ...f, entry_price: ownEntries[i]! })))).toBe('5b9457603424bb38a27857bb4a0adc542f3251e06c1179c77b1bd634b93fddec');
    expect(digest(markets.map(({ index_price_time: _t, index_price_source: _s, ...m }) => m))).toBe('edf98a62daf319f3b9695a818a4068b521865b49e3844e1d69de0d1ce5975eb7');
    expect(markets.every((m) => m.index_price_source === 'simulated' && m.index_price_time === m.time)).toBe(true);
    // served entry_price: the size-weighted average of the lifecycle's increases (contract §6)
    expect(fills.some((f, i) => f.entry_price !== ownEntries[i])).toBe(true);
    // position_entry_price: the own entry, bit for bit
    expect(fills.every((f, i) => f.position_entry_price === ownEntries[i])).toBe(true);
    expect(digest(positions)).toBe('deb03e53c117a68a21e3bde66a5745fd092ade988cd29692ed9759d8a8a468b0');
  });

  it('a version-1 state is read at scale <= 1 and refused above (older population model)', () => {
    const sim = new Simulator({ seed: 5, scale: 1 });
    sim.advance(START + DAY);
    const v1: Record<string, unknown> = { ...(sim.saveState() as Record<string, unknown>), version: 1 };
    delete v1.tourists;
    const a = Simulator.restore(v1).advance(START + 2 * DAY);
    const b = sim.advance(START + 2 * DAY);
    expect(digest(fillsOf(a))).toBe(digest(fillsOf(b)));
    const big = { ...v1, options: { ...(v1.options as object), scale: 10 } };
    expect(() => Simulator.restore(big)).toThrow(/before tourists/);
  });
});

describe('simulator above scale 1: tourists', () => {
  const OPTS = { seed: 9, scale: 4 };
  const UNTIL = START + 8 * DAY;
  const batches = new Simulator(OPTS).advance(UNTIL);
  const fills = fillsOf(batches);

  it('is deterministic and split-invariant through save/restore with tourists in flight', () => {
    const sim = new Simulator(OPTS);
    const pieces = sim.advance(START + 4 * DAY + 333 * 60_000);
    const state = JSON.parse(JSON.stringify(sim.saveState())) as { tourists: number };
    expect(state.tourists).toBeGreaterThan(100);
    pieces.push(...Simulator.restore(state).advance(UNTIL));
    expect(digest(fillsOf(pieces))).toBe(digest(fills));
    expect(digest(pieces.flatMap((b) => b.positionSnapshots))).toBe(digest(batches.flatMap((b) => b.positionSnapshots)));
  });

  it('adds many short-lived accounts: most trade a few times, a few regulars trade a lot', () => {
    const perAccount = new Map<string, number>();
    for (const f of fills) perAccount.set(f.address, (perAccount.get(f.address) ?? 0) + 1);
    // scale 4 keeps 12,000 regulars (owners 0..11,999); tourists are the wallets after them
    const regulars = new Set(Array.from({ length: 12_000 }, (_, i) => walletAddress(OPTS.seed, i)));
    const tourists = [...perAccount].filter(([a]) => !regulars.has(a)).map(([, n]) => n);
    const regular = [...perAccount].filter(([a]) => regulars.has(a)).map(([, n]) => n);
    // they join at 3 × (15 + 30) a day at full activity (alpha ramps up from a quarter)
    expect(tourists.length).toBeGreaterThan(700);
    expect(tourists.length).toBeLessThan(1_500);
    expect(tourists.filter((n) => n <= 4).length / tourists.length).toBeGreaterThan(0.6);
    expect(Math.max(...tourists)).toBeGreaterThan(20);
    expect(Math.max(...regular)).toBeGreaterThan(200);
  });

  it('tourists go through the same mechanics: size and collateral chains per position key, lifecycles open..close', () => {
    const last = new Map<string, IncomingFill>();
    const bad: string[] = [];
    for (const f of fills) {
      const prev = last.get(f.position_key);
      const before = prev ? prev.position_size_usd : 0;
      if (Math.abs(before + f.size_delta_usd - f.position_size_usd) > 1e-6) bad.push(`size chain ${f.tx}`);
      const collBefore = prev ? prev.position_collateral_usd : 0;
      if (Math.abs(collBefore + f.collateral_delta_usd - f.position_collateral_usd) > 2e-6) bad.push(`collateral chain ${f.tx}`);
      if ((before === 0) !== (f.type === 'open')) bad.push(`type ${f.type} after size ${before}`);
      if (f.position_size_usd === 0 && f.type !== 'close' && f.type !== 'liquidation') bad.push(`empty after ${f.type}`);
      last.set(f.position_key, f);
    }
    expect(bad.slice(0, 5)).toEqual([]);
    expect(fills.filter((f) => f.type === 'liquidation').length).toBeGreaterThan(0);
  });

  it('tourist traits are a pure function of (seed, index) and visits are heavy-tailed', () => {
    expect(makeTourist(3, 17, 1_017)).toEqual(makeTourist(3, 17, 1_017));
    const visits = Array.from({ length: 4_000 }, (_, i) => makeTourist(3, i, 10_000 + i).visits);
    const ones = visits.filter((v) => v === 1).length / visits.length;
    expect(ones).toBeGreaterThan(0.5);
    expect(ones).toBeLessThan(0.66);
    expect(Math.max(...visits)).toBeGreaterThan(50);
    for (const [t, v, p] of [
      [0, 0, 'alpha'],
      [4_194_303, 399, 'beta'],
      [12_345, 7, 'beta'],
    ] as const) {
      expect(parseVisitRef(visitRef(t, v, p))).toEqual({ tourist: t, visit: v, protocol: p });
    }
  });
});
