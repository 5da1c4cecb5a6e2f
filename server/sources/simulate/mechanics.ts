/**
 * Protocol dispatch: the few questions the engine asks about a position (pending fees, close fee,
 * liquidation margin, liquidation price, prefilter bound), answered by alpha's or beta's formulas.
 */
import { ALPHA_MAX_FEE_PER_MINUTE, alphaCloseFee, alphaLiqBound, alphaLiqPrice, alphaMargin, alphaThreshold } from './alpha-mechanics.ts';
import { BETA_MAX_FEE_PER_MINUTE, betaFee, betaLiqBound, betaLiqPrice, betaMargin } from './beta-mechanics.ts';
import { ALPHA, BETA, VARIANTS } from './markets.ts';
import type { Position, VariantRuntime } from './types.ts';

const IS_ALPHA = VARIANTS.map((v) => v.protocol === 'alpha');

// Pending amounts are three scalar functions rather than one object: they run in the keeper's
// inner loop and allocation there shows in the profile.

/** Borrowing (USD, unrounded) accrued since the position's last settlement. */
export function pendingBorrow(rt: VariantRuntime, pos: Position): number {
  return (pos.size / 1e6) * ((pos.long ? rt.cumBL : rt.cumBS) - pos.cumB);
}

/** Funding paid (USD, unrounded) accrued since the last settlement; always 0 on beta. */
export function pendingFunding(rt: VariantRuntime, pos: Position): number {
  return (pos.size / 1e6) * ((pos.long ? rt.cumFPL : rt.cumFPS) - pos.cumFP);
}

/** Funding earned (claimable, USD, unrounded) accrued since the last settlement; always 0 on beta. */
export function pendingEarned(rt: VariantRuntime, pos: Position): number {
  return (pos.size / 1e6) * ((pos.long ? rt.cumFEL : rt.cumFES) - pos.cumFE);
}

/** Snapshot of the cumulative factors a position settles against: [borrow, funding paid, funding earned]. */
export function cumulativeOf(rt: VariantRuntime, long: boolean): [number, number, number] {
  return long ? [rt.cumBL, rt.cumFPL, rt.cumFEL] : [rt.cumBS, rt.cumFPS, rt.cumFES];
}

/** Trading fee (USD, unrounded) that closing the whole position now would pay. */
export function closeFee(rt: VariantRuntime, pos: Position): number {
  return IS_ALPHA[pos.v] ? alphaCloseFee(rt, pos) : betaFee(pos.size / 1e6);
}

/** Liquidation margin at index price `p`: negative when the protocol's liquidation condition holds. */
export function margin(rt: VariantRuntime, pos: Position, p: number): number {
  const fees = closeFee(rt, pos) + pendingBorrow(rt, pos) + pendingFunding(rt, pos);
  return IS_ALPHA[pos.v] ? alphaMargin(pos, p, fees) : betaMargin(pos, p, fees);
}

/** Equity the way a trader sees it: collateral value + PnL − pending fees − close fee (USD). */
export function equity(rt: VariantRuntime, pos: Position, p: number): { collateral: number; equity: number; threshold: number } {
  const s = pos.size / 1e6;
  const collateral = pos.tokenColl ? pos.amount * p : pos.amount;
  const pnl = pos.long ? s * (p / pos.entry - 1) : s * (1 - p / pos.entry);
  const threshold = IS_ALPHA[pos.v] ? alphaThreshold(s) : s / BETA.maxLeverage;
  const fees = pendingBorrow(rt, pos) + pendingFunding(rt, pos) + closeFee(rt, pos);
  return { collateral, equity: collateral + pnl - fees, threshold };
}

/** Estimated liquidation price now (null when price alone cannot trigger liquidation). */
export function liquidationPrice(rt: VariantRuntime, pos: Position): number | null {
  const fees = closeFee(rt, pos) + pendingBorrow(rt, pos) + pendingFunding(rt, pos);
  return IS_ALPHA[pos.v] ? alphaLiqPrice(pos, fees) : betaLiqPrice(pos, fees);
}

/**
 * Conservative prefilter bound valid for the next `minutes`: the liquidation price with the
 * worst-case close fee and fees accruing at the highest possible rate. A long can only become
 * liquidatable at a price <= the bound, a short at a price >= it.
 */
export function projectedBound(rt: VariantRuntime, pos: Position, minutes: number): number {
  const s = pos.size / 1e6;
  const pending = pendingBorrow(rt, pos) + pendingFunding(rt, pos);
  if (IS_ALPHA[pos.v]) return alphaLiqBound(pos, s * ALPHA.orderFeeWorsen + pending + s * ALPHA_MAX_FEE_PER_MINUTE * minutes);
  return betaLiqBound(pos, betaFee(s) + pending + s * BETA_MAX_FEE_PER_MINUTE * minutes);
}
