/**
 * The trader population and its behaviour.
 *
 * Each trader has fixed traits drawn once from the seed (activity with a Pareto tail, so a few
 * whales and many small accounts; wealth; preferred leverage and holding time; long bias;
 * favourite markets; whether they post the index token as collateral where a pool allows it).
 * Arrivals on each protocol are a Poisson process whose rate follows the market's activity
 * (launch ramp, time of day, weekends, recent volatility): each minute draws a Poisson count,
 * and each arrival picks its trader in proportion to activity (alias table). An arrival opens a
 * position, or adds to it when that on-chain position is already open. Each lifecycle gets a
 * planned holding time and a few adjustments (increase, partial decrease, collateral edits).
 * The population is regenerated from the seed on restore, so it is not part of the saved state.
 */
import type { Protocol } from '../../journal/rows.ts';
import { walletAddress } from './ids.ts';
import { ALPHA, ALPHA_LAUNCH_MS, BETA, VARIANTS_OF, type CollateralOption, type VariantDef } from './markets.ts';
import { DAY_MS, HOUR_MS } from '../../lib/time.ts';
import { Rng } from './rng.ts';

/** (sim) population and activity calibration */
export const BEHAVIOUR = {
  tradersPerScale: 3_000,
  /** lifecycle opens per day per protocol at full activity, scale 1 (about 3.3 fills each) */
  opensPerDay: { alpha: 390, beta: 390 } as Record<Protocol, number>,
  /** Pareto tail of trader activity and its cap */
  activityAlpha: 1.15,
  activityCap: 600,
  /** alpha ramps up from its launch over this many days */
  alphaRampDays: 120,
  /** how strongly a new position leans to the smaller side (funding receivers, better impact):
   *  P(long) = long bias − lean × (L − S) / (L + S) */
  sideLean: { alpha: 0.5, beta: 0.2 } as Record<Protocol, number>,
  minSizeUsd: 10,
  maxSizeUsd: 5e6,
  minLeverage: 1.1,
  /** holding time bounds (minutes) */
  minHoldMinutes: 2,
  maxHoldMinutes: 60 * 1_440,
};

/** Fixed traits of one trader. */
export interface Trader {
  address: string;
  /** typical collateral per trade (USD) */
  wealth: number;
  /** typical leverage */
  lev: number;
  /** typical holding time (minutes) */
  hold: number;
  /** probability of going long */
  longBias: number;
  /** expected number of adjustments per lifecycle */
  fiddle: number;
  /** probability of posting the index token (WSOL) as collateral on a long where allowed */
  tokenCollShare: number;
  /** market preference per protocol, aligned with VARIANTS_OF[protocol] */
  weights: Record<Protocol, number[]>;
}

/** Draws a trader index in proportion to weights in O(1) (Vose's alias method). */
export class AliasTable {
  private readonly prob: Float64Array;
  private readonly alias: Int32Array;

  constructor(
    /** trader indices */
    readonly members: readonly number[],
    weights: readonly number[],
  ) {
    const n = members.length;
    this.prob = new Float64Array(n);
    this.alias = new Int32Array(n);
    const total = weights.reduce((a, b) => a + b, 0);
    const scaled = weights.map((w) => (w * n) / total);
    const small: number[] = [];
    const large: number[] = [];
    scaled.forEach((w, i) => (w < 1 ? small : large).push(i));
    while (small.length > 0 && large.length > 0) {
      const s = small.pop()!;
      const l = large.pop()!;
      this.prob[s] = scaled[s]!;
      this.alias[s] = l;
      scaled[l] = scaled[l]! + scaled[s]! - 1;
      (scaled[l]! < 1 ? small : large).push(l);
    }
    for (const i of [...small, ...large]) this.prob[i] = 1;
  }

  draw(rng: Rng): number {
    const i = rng.int(this.members.length);
    return this.members[rng.float() < this.prob[i]! ? i : this.alias[i]!]!;
  }
}

/** rough mean of {@link activityMultiplier}, to calibrate the base arrival rate */
const MEAN_ACTIVITY = 0.95;

/** Builds the population (deterministic in seed and scale). */
export function makePopulation(seed: number, scale: number): { traders: Trader[]; pickers: Record<Protocol, AliasTable> } {
  const rng = new Rng(seed, 3);
  const n = Math.max(10, Math.round(BEHAVIOUR.tradersPerScale * scale));
  const traders: Trader[] = [];
  const activity: number[] = [];
  const uses: Protocol[][] = [];
  for (let i = 0; i < n; i++) {
    const a = Math.min(BEHAVIOUR.activityCap, rng.pareto(1, BEHAVIOUR.activityAlpha));
    activity.push(a);
    const u = rng.float();
    uses.push(u < 0.45 ? ['alpha'] : u < 0.85 ? ['beta'] : ['alpha', 'beta']);
    const degen = rng.chance(0.05);
    traders.push({
      address: walletAddress(seed, i),
      wealth: Math.min(2e6, rng.lognormal(Math.log(600), 1.4) * Math.pow(a, 0.4)),
      lev: degen ? rng.uniform(40, 100) : Math.min(60, 1.1 + rng.lognormal(Math.log(5), 0.8)),
      hold: rng.lognormal(Math.log(240), 1.6),
      longBias: Math.min(0.95, Math.max(0.05, 0.56 + 0.15 * rng.normal())),
      fiddle: rng.lognormal(0, 0.6),
      tokenCollShare: rng.float(),
      weights: {
        alpha: VARIANTS_OF.alpha.map((v) => v.weight * rng.lognormal(0, 1.2)),
        beta: VARIANTS_OF.beta.map((v) => v.weight * rng.lognormal(0, 1.2)),
      },
    });
  }
  const picker = (protocol: Protocol): AliasTable => {
    const members: number[] = [];
    for (let i = 0; i < n; i++) if (uses[i]!.includes(protocol)) members.push(i);
    return new AliasTable(
      members,
      members.map((i) => activity[i]!),
    );
  };
  return { traders, pickers: { alpha: picker('alpha'), beta: picker('beta') } };
}

/** Expected arrivals of a protocol in one minute at activity multiplier `activity`. */
export function arrivalsPerMinute(protocol: Protocol, scale: number, activity: number): number {
  return ((BEHAVIOUR.opensPerDay[protocol] * scale) / 1_440) * (activity / MEAN_ACTIVITY);
}

/**
 * Activity multiplier of a protocol at minute `t`: alpha's launch ramp, a
 * daily cycle peaking at 15:00 UTC, quieter weekends, and `excitement` (recent volatility).
 */
export function activityMultiplier(protocol: Protocol, t: number, excitement: number): number {
  const ramp = protocol === 'alpha' ? Math.min(1, 0.25 + (0.75 * (t - ALPHA_LAUNCH_MS)) / (BEHAVIOUR.alphaRampDays * DAY_MS)) : 1;
  const hour = (t % DAY_MS) / HOUR_MS;
  const daily = 1 + 0.3 * Math.cos((2 * Math.PI * (hour - 15)) / 24);
  const dow = (Math.floor(t / DAY_MS) + 4) % 7;
  const weekend = dow === 0 || dow === 6 ? 0.75 : 1;
  return Math.max(0, ramp) * daily * weekend * excitement;
}

/** What an accepted arrival wants to open (or add to an open position with the same key). */
export interface OpenPlan {
  variant: VariantDef;
  long: boolean;
  coll: CollateralOption;
  /** size in USD and the collateral deposited on top of the order fee */
  size: number;
  collateral: number;
  lev: number;
  /** planned holding time in minutes and number of adjustments */
  hold: number;
  adjustments: number;
}

/**
 * What an arrival wants. `imbalanceOf(v)` = (L − S) / (L + S) of a variant: traders lean to the
 * smaller side (on alpha it receives funding and gets positive price impact), which keeps open
 * interest from growing lopsided.
 */
export function planOpen(rng: Rng, trader: Trader, protocol: Protocol, imbalanceOf: (v: number) => number): OpenPlan {
  const variants = VARIANTS_OF[protocol];
  const variant = variants[rng.weighted(trader.weights[protocol])]!;
  const pLong = trader.longBias - BEHAVIOUR.sideLean[protocol] * imbalanceOf(variant.idx);
  const long = rng.chance(Math.min(0.95, Math.max(0.05, pLong)));
  const options = long ? variant.collLong : variant.collShort;
  let coll = options[0]!;
  if (options.length > 1) {
    // where both pool tokens are allowed: the index token is mostly a long's collateral
    const wantIndex = rng.chance(long ? trader.tokenCollShare : trader.tokenCollShare * 0.3);
    coll = options.find((o) => o.indexToken === wantIndex) ?? coll;
  }
  const maxLev = protocol === 'alpha' ? ALPHA.maxLeverage : BETA.maxInitialLeverage;
  const lev = Math.min(maxLev, Math.max(BEHAVIOUR.minLeverage, trader.lev * rng.lognormal(0, 0.3)));
  const size = Math.min(BEHAVIOUR.maxSizeUsd, Math.max(BEHAVIOUR.minSizeUsd, trader.wealth * rng.lognormal(0, 0.7) * lev));
  const hold = Math.min(BEHAVIOUR.maxHoldMinutes, Math.max(BEHAVIOUR.minHoldMinutes, trader.hold * rng.lognormal(0, 0.8)));
  return { variant, long, coll, size, collateral: size / lev, lev, hold, adjustments: Math.min(8, rng.poisson(trader.fiddle)) };
}

/** What the trader knows about an open position when adjusting it (USD). */
export interface PositionView {
  size: number;
  /** collateral value at the index price */
  collateral: number;
  /** collateral value + PnL − pending fees − close fee */
  equity: number;
  /** liquidation threshold equity (alpha: min collateral; beta: size / max leverage) */
  threshold: number;
  /** leverage aimed for on this lifecycle */
  lev: number;
  wealth: number;
}

export type AdjustOp = { kind: 'increase'; delta: number; deposit: number } | { kind: 'decrease'; delta: number; withdrawShare: number } | { kind: 'collateral'; amount: number } | { kind: 'close' };

/**
 * An adjustment of an open position, or null to do nothing. A distressed position (leverage
 * twice the target or equity near the threshold) is topped up, cut or closed; a healthy one is
 * increased, partly decreased or has collateral added or withdrawn. Withdrawals never push
 * leverage past min(1.5 × target, 50) and deposits never below 1.1x, so no trader action by
 * itself makes a position liquidatable.
 */
export function planAdjust(rng: Rng, v: PositionView): AdjustOp | null {
  const distressed = v.equity <= 0 || v.size / v.equity > 2 * v.lev || v.equity < 3 * v.threshold;
  const u = rng.float();
  if (distressed) {
    if (u < 0.6) {
      const amount = Math.min(v.wealth * 3, v.size / v.lev - v.equity);
      return amount >= 1 ? { kind: 'collateral', amount } : null;
    }
    if (u < 0.85 || v.size < 2 * BEHAVIOUR.minSizeUsd) return { kind: 'close' };
    return { kind: 'decrease', delta: v.size * 0.5, withdrawShare: 0.5 };
  }
  if (u < 0.35) {
    const delta = Math.min(BEHAVIOUR.maxSizeUsd - v.size, v.size * rng.lognormal(Math.log(0.5), 0.6));
    return delta >= BEHAVIOUR.minSizeUsd ? { kind: 'increase', delta, deposit: delta / v.lev } : null;
  }
  if (u < 0.7) {
    const share = rng.uniform(0.2, 0.8);
    if (v.size * (1 - share) < BEHAVIOUR.minSizeUsd) return { kind: 'close' };
    return { kind: 'decrease', delta: v.size * share, withdrawShare: share };
  }
  if (rng.chance(0.55)) {
    const room = v.size / BEHAVIOUR.minLeverage - v.equity;
    const amount = Math.min(room, v.equity * rng.uniform(0.1, 0.8));
    return amount >= 1 ? { kind: 'collateral', amount } : null;
  }
  // profits do not count: leverage on collateral alone stays <= min(1.5 × target, 50)
  const free = Math.min(0.9 * v.collateral, Math.min(v.collateral, v.equity) - v.size / Math.min(1.5 * v.lev, 50));
  const amount = free * rng.uniform(0.2, 0.9);
  return amount >= 1 ? { kind: 'collateral', amount: -amount } : null;
}
