/**
 * The liquidation keeper. Once per simulated minute, at second 1 and at that minute's index price,
 * it liquidates every open position whose protocol condition holds (never early; at most the
 * rest of the minute late).
 *
 * Checking every position exactly every minute would dominate the run, so there is a two-level
 * conservative prefilter. Each position carries a bound: its liquidation price with the
 * worst-case close fee and fees accruing at the highest possible rate until the keeper's next
 * full pass (a long can only become liquidatable at a price <= its bound, a short at >=). Each
 * variant side keeps the most extreme bound of its positions. A minute costs 22 comparisons;
 * only a side whose bound the price crosses is scanned, and in it only positions whose own bound
 * is crossed get the exact check. A position's bound is recomputed when it changes, and all of
 * them on a full pass every FULL_PASS_MINUTES (which also checks every position exactly).
 * Because every bound is conservative, the set liquidated never depends on the bounds: it is
 * exactly the positions whose condition holds at the start of the minute, taken in lifecycle-id
 * order, each re-checked just before (an earlier liquidation moves the OI balance, and so alpha's
 * close fee).
 */
import { margin, projectedBound } from './mechanics.ts';
import { VARIANTS } from './markets.ts';
import { MINUTE_MS } from '../../lib/time.ts';
import type { Pools } from './pools.ts';
import type { Position } from './types.ts';
import { NO_LONG_BOUND, NO_SHORT_BOUND } from './types.ts';

/** every this many minutes all positions are checked exactly and all bounds recomputed */
export const FULL_PASS_MINUTES = 240;

/** Open positions per variant and side, with O(1) removal. */
export class SideLists {
  readonly longs: Position[][] = VARIANTS.map(() => []);
  readonly shorts: Position[][] = VARIANTS.map(() => []);

  add(pos: Position): void {
    const list = (pos.long ? this.longs : this.shorts)[pos.v]!;
    pos.listIdx = list.length;
    list.push(pos);
  }

  remove(pos: Position): void {
    const list = (pos.long ? this.longs : this.shorts)[pos.v]!;
    const last = list.pop()!;
    if (last !== pos) {
      list[pos.listIdx] = last;
      last.listIdx = pos.listIdx;
    }
  }
}

/** Finds the positions to liquidate each minute (see the module comment). */
export class Keeper {
  constructor(
    private readonly pools: Pools,
    private readonly lists: SideLists,
    /** time of the next full pass (part of the saved state) */
    public nextFullPass: number,
  ) {}

  /** minutes a bound computed at `now` must stay valid: until the next full pass, plus one */
  private horizon(now: number): number {
    return Math.max(0, (this.nextFullPass - now) / MINUTE_MS) + 1;
  }

  /** Recomputes a changed position's bound and widens its side's (call after every trader fill). */
  touch(pos: Position, now: number): void {
    const rt = this.pools.variants[pos.v]!;
    const b = projectedBound(rt, pos, this.horizon(now));
    pos.bound = b;
    if (pos.long) {
      if (b > rt.boundL) rt.boundL = b;
    } else if (b < rt.boundS) rt.boundS = b;
  }

  /**
   * Positions whose liquidation condition holds at minute `m` (`prices[v]` = index price of
   * variant v), sorted by lifecycle id.
   */
  candidates(m: number, prices: Float64Array): Position[] {
    const out: Position[] = [];
    const full = m >= this.nextFullPass;
    if (full) this.nextFullPass = m + FULL_PASS_MINUTES * MINUTE_MS;
    const horizon = this.horizon(m);
    for (let v = 0; v < VARIANTS.length; v++) {
      const rt = this.pools.variants[v]!;
      const p = prices[v]!;
      if (full) {
        rt.boundL = this.fullPass(this.lists.longs[v]!, p, horizon, out, true);
        rt.boundS = this.fullPass(this.lists.shorts[v]!, p, horizon, out, false);
        continue;
      }
      if (p <= rt.boundL) {
        let b = NO_LONG_BOUND;
        for (const pos of this.lists.longs[v]!) {
          if (p <= pos.bound && margin(rt, pos, p) < 0) out.push(pos);
          if (pos.bound > b) b = pos.bound;
        }
        rt.boundL = b;
      }
      if (p >= rt.boundS) {
        let b = NO_SHORT_BOUND;
        for (const pos of this.lists.shorts[v]!) {
          if (p >= pos.bound && margin(rt, pos, p) < 0) out.push(pos);
          if (pos.bound < b) b = pos.bound;
        }
        rt.boundS = b;
      }
    }
    if (out.length > 1) out.sort((a, b) => a.id - b.id);
    return out;
  }

  /** Exact check of every position of a side; recomputes their bounds and returns the side's. */
  private fullPass(list: Position[], p: number, horizon: number, out: Position[], long: boolean): number {
    let side = long ? NO_LONG_BOUND : NO_SHORT_BOUND;
    for (const pos of list) {
      const rt = this.pools.variants[pos.v]!;
      if (margin(rt, pos, p) < 0) out.push(pos);
      const b = projectedBound(rt, pos, horizon);
      pos.bound = b;
      side = long ? Math.max(side, b) : Math.min(side, b);
    }
    return side;
  }

  /** Exact check just before liquidating (state may have moved since `candidates`). */
  holds(pos: Position, p: number): boolean {
    return margin(this.pools.variants[pos.v]!, pos, p) < 0;
  }
}
