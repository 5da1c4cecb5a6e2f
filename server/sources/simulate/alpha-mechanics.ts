/**
 * alpha (GMX-Solana, GMX v2 model) formulas: rates, order fee, price impact, liquidation
 * condition and liquidation price. Pure functions of the state they are given; every constant is
 * in markets.ts (ALPHA).
 */
import { ALPHA, HOURS_PER_YEAR } from './markets.ts';
import type { Position, VariantRuntime } from './types.ts';
import { NO_LONG_BOUND, NO_SHORT_BOUND } from './types.ts';

/** Yearly borrowing rate for a pool usage in [0, 1] (kink model). */
export function borrowYearly(usage: number): number {
  const u = Math.min(1, Math.max(0, usage));
  let rate = ALPHA.borrowBaseYearly * u;
  if (u > ALPHA.borrowOptimalUsage) {
    rate += ((ALPHA.borrowAboveOptimalYearly - ALPHA.borrowBaseYearly) * (u - ALPHA.borrowOptimalUsage)) / (1 - ALPHA.borrowOptimalUsage);
  }
  return rate;
}

/**
 * Sets the hourly rates in force from open interest and pool value. Borrowing: the larger side
 * only, on usage = larger side OI / pool value. Funding (non-adaptive mode): f = factor ×
 * |L − S|^exp / (L + S), capped; the larger side pays f, the smaller receives f × payer OI /
 * receiver OI. Nobody pays funding while one side is empty (there is nobody to receive it).
 */
export function alphaUpdateRates(rt: VariantRuntime): void {
  const L = rt.oiLong / 1e6;
  const S = rt.oiShort / 1e6;
  const hourly = borrowYearly(Math.max(L, S) / rt.pool) / HOURS_PER_YEAR;
  rt.rBL = L > S ? hourly : 0;
  rt.rBS = S > L ? hourly : 0;
  let f = 0;
  if (L > 0 && S > 0) {
    f = Math.min(ALPHA.fundingCapHourly, (ALPHA.fundingFactorHourly * Math.pow(Math.abs(L - S), ALPHA.fundingExponent)) / (L + S));
  }
  if (f > 0 && L > S) {
    rt.raw = f;
    rt.rFL = -f;
    rt.rFS = (f * L) / S;
  } else if (f > 0 && S > L) {
    rt.raw = -f;
    rt.rFS = -f;
    rt.rFL = (f * S) / L;
  } else {
    rt.raw = 0;
    rt.rFL = 0;
    rt.rFS = 0;
  }
}

/** Largest possible fee accrual per USD of size per minute (borrowing at 100 % usage + capped funding). */
export const ALPHA_MAX_FEE_PER_MINUTE = (ALPHA.borrowAboveOptimalYearly / HOURS_PER_YEAR + ALPHA.fundingCapHourly) / 60;

/** Result of pricing a size change against the pool's imbalance. */
export interface AlphaTrade {
  /** execution price (index price moved by the capped price impact) */
  price: number;
  /** order fee in USD (not rounded) */
  fee: number;
  /** the trade reduced |long OI − short OI| */
  improves: boolean;
}

/**
 * Prices a size change `delta` (USD, + increase, − decrease) of a long or short at index price
 * `p`: impact g(x0) − g(x1) with g(x) = kappa / pool × x², as a fraction of |delta| capped at
 * 0.5 %, applied to the execution price; order fee 0.05 % if the balance improves, else 0.07 %.
 */
export function alphaTrade(rt: VariantRuntime, long: boolean, delta: number, p: number): AlphaTrade {
  const x0 = (rt.oiLong - rt.oiShort) / 1e6;
  const x1 = x0 + (long ? delta : -delta);
  const improves = Math.abs(x1) < Math.abs(x0);
  const abs = Math.abs(delta);
  let frac = abs > 0 ? ((ALPHA.priceImpactKappa / rt.pool) * (x0 * x0 - x1 * x1)) / abs : 0;
  frac = Math.max(-ALPHA.priceImpactCap, Math.min(ALPHA.priceImpactCap, frac));
  // a favourable impact (frac > 0) lowers the price for a buyer and raises it for a seller
  const buy = long === delta > 0;
  const price = buy ? p * (1 - frac) : p * (1 + frac);
  return { price, fee: abs * (improves ? ALPHA.orderFeeImprove : ALPHA.orderFeeWorsen), improves };
}

/** Order fee (USD) that closing the whole position now would pay. */
export function alphaCloseFee(rt: VariantRuntime, pos: Position): number {
  const x0 = rt.oiLong - rt.oiShort;
  const x1 = x0 - (pos.long ? pos.size : -pos.size);
  const rate = Math.abs(x1) < Math.abs(x0) ? ALPHA.orderFeeImprove : ALPHA.orderFeeWorsen;
  return (pos.size / 1e6) * rate;
}

/** Liquidation threshold: max(size × min collateral factor, $1). */
export function alphaThreshold(sizeUsd: number): number {
  return Math.max(sizeUsd * ALPHA.minCollateralFactorForLiquidation, ALPHA.minCollateralUsd);
}

/**
 * collateral + PnL − fees − threshold at index price `p`, where `fees` = close fee + pending
 * borrowing + pending funding. Negative means the liquidation condition holds.
 */
export function alphaMargin(pos: Position, p: number, fees: number): number {
  const s = pos.size / 1e6;
  const coll = pos.tokenColl ? pos.amount * p : pos.amount;
  const pnl = pos.long ? s * (p / pos.entry - 1) : s * (1 - p / pos.entry);
  return coll + pnl - fees - alphaThreshold(s);
}

/**
 * The index price at which the liquidation condition starts to hold, for total deductible fees
 * `fees`, as a prefilter bound: a long is at risk when price <= bound, a short when price >= bound.
 * Returns the "never" sentinel when price cannot trigger it and the "always" one when it holds at
 * every price.
 */
export function alphaLiqBound(pos: Position, fees: number): number {
  const s = pos.size / 1e6;
  const e = pos.entry;
  const m = alphaThreshold(s);
  const q = pos.amount;
  if (pos.long) {
    // USD: C + S(P/E − 1) − F = m;  tokens: qP + S(P/E − 1) − F = m  (value rises with P)
    const p = pos.tokenColl ? (s + m + fees) / (q + s / e) : (e * (s + m + fees - q)) / s;
    return p > 0 ? p : NO_LONG_BOUND;
  }
  if (!pos.tokenColl) {
    const p = (e * (s + q - m - fees)) / s; // C + S(1 − P/E) − F = m
    return p > 0 ? p : -NO_SHORT_BOUND; // <= 0: holds at every price
  }
  const denom = s / e - q; // qP + S(1 − P/E) − F = m  →  P (S/E − q) = S − m − F
  if (denom <= 0) return s - m - fees <= 0 ? -NO_SHORT_BOUND : NO_SHORT_BOUND;
  const p = (s - m - fees) / denom;
  return p > 0 ? p : -NO_SHORT_BOUND;
}

/** Liquidation price for display (null when price alone cannot trigger it, or it already holds). */
export function alphaLiqPrice(pos: Position, fees: number): number | null {
  const b = alphaLiqBound(pos, fees);
  return b > 0 && b < NO_SHORT_BOUND ? b : null;
}
