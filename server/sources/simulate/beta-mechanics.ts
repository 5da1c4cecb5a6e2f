/**
 * beta (Jupiter Perpetuals) formulas: custody borrow rates, fees, liquidation condition and
 * liquidation price. No funding. Every constant is in markets.ts (BETA).
 */
import { BETA, HOURS_PER_YEAR, type JumpRateModel } from './markets.ts';
import type { Position } from './types.ts';
import { NO_LONG_BOUND, NO_SHORT_BOUND } from './types.ts';

/** Yearly borrow rate of a custody at utilisation u (jump model: min → target → max). */
export function custodyYearly(model: JumpRateModel, utilization: number): number {
  const u = Math.min(1, Math.max(0, utilization));
  const tu = model.targetUtilization;
  if (u <= tu) return model.minYearly + ((model.targetYearly - model.minYearly) * u) / tu;
  return model.targetYearly + ((model.maxYearly - model.targetYearly) * (u - tu)) / (1 - tu);
}

/** Hourly borrow rate of a custody at utilisation u (= locked / owned). */
export function custodyHourly(model: JumpRateModel, utilization: number): number {
  return custodyYearly(model, utilization) / HOURS_PER_YEAR;
}

/** Largest possible borrow accrual per USD of size per minute, over all custodies. */
export const BETA_MAX_FEE_PER_MINUTE = Math.max(...Object.values(BETA.custodies).map((m) => m.maxYearly)) / HOURS_PER_YEAR / 60;

/** Trading fee (USD, not rounded) on a size change: 6 bps + the price-impact fee |d|² / scalar. */
export function betaFee(delta: number): number {
  const abs = Math.abs(delta);
  return abs * BETA.baseFee + (abs * abs) / BETA.impactFeeScalarUsd;
}

/**
 * collateral − size / max leverage − (loss + close fee + pending borrow) at price `p`, with
 * `fees` = close fee + pending borrow. Negative means the liquidation condition holds
 * ("loss + close fee + borrow fee > collateral − size / max leverage"; a profit does not offset).
 */
export function betaMargin(pos: Position, p: number, fees: number): number {
  const s = pos.size / 1e6;
  const pnl = pos.long ? s * (p / pos.entry - 1) : s * (1 - p / pos.entry);
  return pos.amount - s / BETA.maxLeverage - Math.max(0, -pnl) - fees;
}

/**
 * Prefilter bound (long at risk when price <= bound, short when price >= bound) for total fees
 * `fees`; the "always" sentinel when fees alone meet the condition, "never" when price cannot.
 */
export function betaLiqBound(pos: Position, fees: number): number {
  const s = pos.size / 1e6;
  const room = pos.amount - s / BETA.maxLeverage - fees; // the loss the position can absorb
  if (room <= 0) return pos.long ? NO_SHORT_BOUND : -NO_SHORT_BOUND;
  if (pos.long) {
    const p = pos.entry * (1 - room / s);
    return p > 0 ? p : NO_LONG_BOUND;
  }
  return pos.entry * (1 + room / s);
}

/** Liquidation price for display (null when price cannot trigger it or it holds at any price). */
export function betaLiqPrice(pos: Position, fees: number): number | null {
  const b = betaLiqBound(pos, fees);
  return b > 0 && b < NO_SHORT_BOUND ? b : null;
}
