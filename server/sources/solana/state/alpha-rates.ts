/**
 * alpha (GMX-Solana) borrowing and funding rates from a Market account and oracle prices, as the
 * program's model computes them (gmsol-labs/gmx-solana crates/model: market/borrowing.rs,
 * params/fee.rs kink model, market/utils.rs usage factor, market/base.rs reserved and pool
 * values, action/update_funding_state.rs). All factors ×1e20 per second.
 */
import { configFlag, openInterest, openInterestInTokens, poolSide, POOL, type AlphaMarketAccount } from '../accounts/alpha-market.ts';
import type { AlphaPrices } from '../alpha-events.ts';
import { applyExponent, applyFactor, divToFactor, UNIT } from './fixed.ts';

const side = <T>(isLong: boolean, long: T, short: T): T => (isLong ? long : short);

/** Reserved value of a side (USD ×1e20): longs OI in tokens × index max price, shorts their OI. */
export function reservedValue(m: AlphaMarketAccount, isLong: boolean, prices: AlphaPrices): bigint {
  return isLong ? openInterestInTokens(m, true) * prices.index.max : openInterest(m, false);
}

/** Primary pool value of one side without PnL, at the minimised token price. */
export function poolValueForSide(m: AlphaMarketAccount, isLong: boolean, prices: AlphaPrices): bigint {
  return poolSide(m.pools[POOL.primary]!, isLong) * side(isLong, prices.long.min, prices.short.min);
}

/** max(reserved / (pool × open-interest reserve factor), OI / max OI) unless the config ignores OI. */
export function usageFactor(m: AlphaMarketAccount, isLong: boolean, reserved: bigint, poolValue: bigint): bigint | null {
  const maxReserved = applyFactor(poolValue, m.config.openInterestReserveFactor);
  if (maxReserved === 0n) return null;
  const reserveUsage = divToFactor(reserved, maxReserved);
  if (configFlag(m, 'ignoreOpenInterestForUsageFactor')) return reserveUsage;
  const maxOi = side(isLong, m.config.maxOpenInterestForLong, m.config.maxOpenInterestForShort);
  if (maxOi === 0n) return null;
  const oiUsage = divToFactor(openInterest(m, isLong), maxOi);
  return reserveUsage > oiUsage ? reserveUsage : oiUsage;
}

/**
 * Borrowing factor per second of a side (×1e20), or null when the model cannot give one (an empty
 * pool). The kink model applies when the side's optimal usage factor is set; otherwise
 * factor × reserved^exponent / pool value.
 */
export function borrowingFactorPerSecond(m: AlphaMarketAccount, isLong: boolean, prices: AlphaPrices): bigint | null {
  const reserved = reservedValue(m, isLong, prices);
  if (reserved === 0n) return 0n;
  if (configFlag(m, 'skipBorrowingFeeForSmallerSide')) {
    const long = openInterest(m, true);
    const short = openInterest(m, false);
    if ((isLong && long < short) || (!isLong && short < long)) return 0n;
  }
  const poolValue = poolValueForSide(m, isLong, prices);
  if (poolValue === 0n) return null;
  const c = m.config;
  const optimal = side(isLong, c.borrowingFeeOptimalUsageFactorForLong, c.borrowingFeeOptimalUsageFactorForShort);
  if (optimal !== 0n) {
    const usage = usageFactor(m, isLong, reserved, poolValue);
    if (usage === null) return null;
    const base = side(isLong, c.borrowingFeeBaseFactorForLong, c.borrowingFeeBaseFactorForShort);
    let rate = applyFactor(usage, base);
    if (usage > optimal && UNIT > optimal) {
      const above = side(isLong, c.borrowingFeeAboveOptimalUsageFactorForLong, c.borrowingFeeAboveOptimalUsageFactorForShort);
      const extra = above > base ? above - base : 0n;
      rate += (extra * (usage - optimal)) / (UNIT - optimal);
    }
    return rate;
  }
  const exponent = side(isLong, c.borrowingFeeExponentForLong, c.borrowingFeeExponentForShort);
  const factor = side(isLong, c.borrowingFeeFactorForLong, c.borrowingFeeFactorForShort);
  return applyFactor(divToFactor(applyExponent(reserved, exponent), poolValue), factor);
}

/** The funding factor per second in force and who pays. */
export interface FundingFactor {
  /** magnitude, ×1e20 per second */
  perSecond: bigint;
  longsPay: boolean;
}

const abs = (x: bigint): bigint => (x < 0n ? -x : x);

/** |value| bounded into [min, max], sign kept (a zero counts as positive). */
function boundMagnitude(value: bigint, min: bigint, max: bigint): bigint {
  const mag = abs(value);
  const bounded = mag < min ? min : mag > max ? max : mag;
  return value < 0n ? -bounded : bounded;
}

/**
 * The funding factor per second charged if the market's funding state were updated `elapsed`
 * seconds after its last update (update_funding_state.rs `next_funding_factor_per_second`):
 * nothing while either side is empty; non-adaptive mode (increase factor 0): funding factor ×
 * |L − S|^exponent / (L + S), capped at the max, paid by the larger side; adaptive mode: the
 * stored factor moved up or down by the configured per-second steps, bounded to [min, max].
 */
export function fundingFactorPerSecond(m: AlphaMarketAccount, elapsed: number): FundingFactor {
  const L = openInterest(m, true);
  const S = openInterest(m, false);
  const none: FundingFactor = { perSecond: 0n, longsPay: true };
  if (L === 0n || S === 0n) return none;
  const c = m.config;
  const diff = abs(L - S);
  if (diff === 0n && c.fundingFeeIncreaseFactorPerSecond === 0n) return none;
  const diffFactor = divToFactor(applyExponent(diff, c.fundingFeeExponent), L + S);
  if (c.fundingFeeIncreaseFactorPerSecond === 0n) {
    let f = applyFactor(diffFactor, c.fundingFeeFactor);
    if (f > c.fundingFeeMaxFactorPerSecond) f = c.fundingFeeMaxFactorPerSecond;
    return { perSecond: f, longsPay: L > S };
  }
  const stored = m.fundingFactorPerSecond;
  const duration = BigInt(Math.max(0, Math.floor(elapsed)));
  const sameDirection = (stored > 0n && L > S) || (stored < 0n && L < S);
  let change: 'increase' | 'decrease' | 'none' = 'increase';
  if (sameDirection) {
    // params/fee.rs: above the stable threshold increase, below the decrease threshold decrease
    const thresholds = { stable: thresholdOf(m, 'stable'), decrease: thresholdOf(m, 'decrease') };
    change = diffFactor > thresholds.stable ? 'increase' : diffFactor < thresholds.decrease ? 'decrease' : 'none';
  }
  let next = stored;
  if (change === 'increase') {
    const inc = applyFactor(diffFactor, c.fundingFeeIncreaseFactorPerSecond) * duration;
    next = stored + (L < S ? -inc : inc);
  } else if (change === 'decrease' && stored !== 0n) {
    const dec = c.fundingFeeDecreaseFactorPerSecond * duration;
    const mag = abs(stored);
    next = mag <= dec ? (stored < 0n ? -1n : 1n) : stored < 0n ? -(mag - dec) : mag - dec;
  }
  const bounded = boundMagnitude(boundMagnitude(next, 0n, c.fundingFeeMaxFactorPerSecond), c.fundingFeeMinFactorPerSecond, c.fundingFeeMaxFactorPerSecond);
  return { perSecond: abs(bounded), longsPay: bounded > 0n };
}

/** The two adaptive-funding thresholds (config @920 and @936, ×1e20). */
function thresholdOf(m: AlphaMarketAccount, which: 'stable' | 'decrease'): bigint {
  return which === 'stable' ? m.config.fundingFeeThresholdForStableFunding : m.config.fundingFeeThresholdForDecreaseFunding;
}

/** Hourly rates of one market as the journal serves them (fractions of size per hour). */
export interface AlphaHourlyRates {
  borrowingLong: number;
  borrowingShort: number;
  /** signed funding per side, + = the side receives */
  fundingLong: number;
  fundingShort: number;
  /** signed funding factor per hour, + = longs pay */
  fundingRaw: number;
  /** per second, for accruing unsettled amounts since the market's clocks */
  borrowingPerSecond: { long: bigint; short: bigint };
  funding: FundingFactor;
}

/** Borrowing and funding per side, per hour; borrowing of a side whose pool is empty is 0. */
export function alphaHourlyRates(m: AlphaMarketAccount, prices: AlphaPrices, nowSec: number): AlphaHourlyRates {
  const bl = borrowingFactorPerSecond(m, true, prices) ?? 0n;
  const bs = borrowingFactorPerSecond(m, false, prices) ?? 0n;
  const funding = fundingFactorPerSecond(m, nowSec - m.fundingClock);
  const L = Number(openInterest(m, true));
  const S = Number(openInterest(m, false));
  const f = (Number(funding.perSecond) * 3600) / 1e20;
  const fundingLong = funding.perSecond === 0n ? 0 : funding.longsPay ? -f : (f * S) / L;
  const fundingShort = funding.perSecond === 0n ? 0 : funding.longsPay ? (f * L) / S : -f;
  return {
    borrowingLong: (Number(bl) * 3600) / 1e20,
    borrowingShort: (Number(bs) * 3600) / 1e20,
    fundingLong,
    fundingShort,
    fundingRaw: funding.perSecond === 0n ? 0 : funding.longsPay ? f : -f,
    borrowingPerSecond: { long: bl, short: bs },
    funding,
  };
}
