/**
 * The long tail of the population above scale 1: "tourists".
 *
 * At scale 1 the population is only the regulars of traders.ts (3,000 steady traders with a
 * Pareto activity tail): the demo data, tests and docs rely on that exact output, so nothing here
 * runs at scale <= 1. Above it, the extra volume is shared between more regulars and a stream of
 * tourists whose count grows with (scale − 1): accounts that show up (a Poisson process of joins
 * following each protocol's activity, one protocol each), trade a heavy-tailed number of times
 * (most once or twice, a few hundreds) over a short active life, and never come back. A share of
 * them are holders: low leverage, positions kept for days to weeks, which is where most of the
 * open positions of a big journal come from (open positions ≈ opens per day × mean holding time).
 *
 * A tourist is an owner number after the regulars' (owner = regulars + tourist index); its traits
 * are a pure function of (seed, tourist index), drawn from its own stream, so nothing about a
 * tourist is stored but its index, counted in the simulator's state, and its next visit in the
 * event queue. Traits are rebuilt on demand (a small cache keeps the recent ones), so 300k
 * tourists cost no memory beyond the open positions they hold.
 */
import type { Protocol } from '../../journal/rows.ts';
import { walletAddress } from './ids.ts';
import { VARIANTS_OF } from './markets.ts';
import { Rng } from './rng.ts';
import type { Trader } from './traders.ts';

/** (sim) tourist calibration; see the module comment */
export const TOURISTS = {
  /** above scale 1 the regulars' arrivals grow by (1 − this) × (scale − 1) instead of (scale − 1),
   *  leaving room for the tourists' visits (whose own volume is set by joins × visits) */
  volumeShare: 0.2,
  /** joins per day per protocol per unit of (scale − 1) at full activity */
  joinsPerDay: { alpha: 15, beta: 30 } as Record<Protocol, number>,
  /** visits per tourist: floor(Pareto(1, visitsAlpha)), capped (P(1) ≈ 58 %, mean ≈ 3.7) */
  visitsAlpha: 1.25,
  maxVisits: 400,
  /** active life in days (lognormal median and spread), capped */
  lifeDays: 4,
  lifeSigma: 1.4,
  maxLifeDays: 240,
  /** kinds: share, typical holding time (minutes), typical leverage */
  kinds: [
    { share: 0.47, hold: 45, lev: 9 }, // flippers
    { share: 0.25, hold: 1_440, lev: 4 }, // swing traders
    { share: 0.28, hold: 25 * 1_440, lev: 2 }, // holders: kept for weeks
  ],
};

/** rng stream of tourist i's traits (streams 1-3 are the simulator's; odd multiplier: no clash) */
const TRAIT_STREAM0 = 1 << 20;

/** Owner-number encoding of a tourist visit in the event queue: (visit × 2^22 + tourist) × 2 + protocol. */
const VISIT_SPAN = 4_194_304; // 2^22 tourists

/** Queue ref of tourist `tourist`'s visit number `visit` (0-based) on `protocol`. */
export function visitRef(tourist: number, visit: number, protocol: Protocol): number {
  if (tourist >= VISIT_SPAN) throw new Error('Simulator: too many tourists');
  return (visit * VISIT_SPAN + tourist) * 2 + (protocol === 'beta' ? 1 : 0);
}

/** Decodes {@link visitRef}. */
export function parseVisitRef(ref: number): { tourist: number; visit: number; protocol: Protocol } {
  const protocol: Protocol = ref % 2 === 1 ? 'beta' : 'alpha';
  const rest = (ref - (ref % 2)) / 2;
  return { tourist: rest % VISIT_SPAN, visit: Math.floor(rest / VISIT_SPAN), protocol };
}

/** A tourist's traits: the regular {@link Trader} fields, plus its visits and active life. */
export interface Tourist extends Trader {
  visits: number;
  /** mean minutes between visits */
  gap: number;
}

/** Builds tourist `index`'s traits (owner number `owner`); pure in (seed, index). */
export function makeTourist(seed: number, index: number, owner: number): Tourist {
  const rng = new Rng(seed, TRAIT_STREAM0 + index);
  const u = rng.float();
  const kinds = TOURISTS.kinds;
  const kind = u < kinds[0]!.share ? kinds[0]! : u < kinds[0]!.share + kinds[1]!.share ? kinds[1]! : kinds[2]!;
  const visits = Math.min(TOURISTS.maxVisits, Math.floor(rng.pareto(1, TOURISTS.visitsAlpha)));
  const life = Math.min(TOURISTS.maxLifeDays, rng.lognormal(Math.log(TOURISTS.lifeDays), TOURISTS.lifeSigma)) * 1_440;
  const degen = kind.lev > 5 && rng.chance(0.08);
  return {
    address: walletAddress(seed, owner),
    wealth: Math.min(5e5, rng.lognormal(Math.log(250), 1.3)),
    lev: degen ? rng.uniform(40, 100) : Math.min(50, 1.1 + rng.lognormal(Math.log(kind.lev - 1), 0.5)),
    hold: rng.lognormal(Math.log(kind.hold), 0.8),
    longBias: Math.min(0.95, Math.max(0.05, 0.6 + 0.2 * rng.normal())),
    fiddle: rng.lognormal(Math.log(0.4), 0.6),
    tokenCollShare: rng.float(),
    weights: {
      alpha: VARIANTS_OF.alpha.map((v) => v.weight * rng.lognormal(0, 1.5)),
      beta: VARIANTS_OF.beta.map((v) => v.weight * rng.lognormal(0, 1.5)),
    },
    visits,
    gap: visits > 1 ? life / (visits - 1) : life,
  };
}

/** Scale of the regulars' arrivals: `scale` up to 1, then 1 + the non-tourist share of the rest. */
export function regularScale(scale: number): number {
  return scale <= 1 ? scale : 1 + (scale - 1) * (1 - TOURISTS.volumeShare);
}

/** Expected tourist joins of a protocol in one minute (0 at scale <= 1). */
export function joinsPerMinute(protocol: Protocol, scale: number, activity: number): number {
  return scale <= 1 ? 0 : ((TOURISTS.joinsPerDay[protocol] * (scale - 1)) / 1_440) * activity;
}

/** Tourists' traits by owner number, rebuilt on demand; the cache only saves time. */
export class TouristCache {
  private readonly cache = new Map<number, Tourist>();

  constructor(
    private readonly seed: number,
    /** owner number of tourist 0 (= number of regulars) */
    readonly first: number,
  ) {}

  get(owner: number): Tourist {
    let t = this.cache.get(owner);
    if (t === undefined) {
      if (this.cache.size >= 20_000) this.cache.clear();
      t = makeTourist(this.seed, owner - this.first, owner);
      this.cache.set(owner, t);
    }
    return t;
  }
}
