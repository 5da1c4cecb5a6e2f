/**
 * A beta position's state now, from its Position account and its custodies: the borrow fee from
 * the cumulative interest index and the liquidation price, as Jupiter's published client computes
 * them (J1 get-liquidation-price.ts, accounts.md §3). beta has no funding.
 */
import type { BetaCustodyAccount } from '../accounts/beta-custody.ts';
import type { BetaPositionAccount } from '../accounts/beta-position.ts';
import { cumulativeInterestAt, RATE_POWER } from './beta-rates.ts';

const BPS_POWER = 10_000n;
const divCeil = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;

/**
 * Which custody's interest index a position's borrow fee follows. UNCONFIRMED for shorts (the
 * program's source is closed): Jupiter's docs and liquidation-price example use the collateral
 * custody, its borrow-fee example the position's custody. For longs both are the same account.
 */
export const BORROW_CUSTODY: 'collateral' | 'position' = 'collateral';

export interface BetaPositionState {
  sizeMicros: bigint;
  collateralMicros: bigint;
  borrowingMicros: bigint;
  /** USD 6dp per whole token, as a number; null when it cannot be computed */
  liquidationPrice: number | null;
}

export function betaPositionState(p: BetaPositionAccount, custody: BetaCustodyAccount, collateralCustody: BetaCustodyAccount, nowSec: number): BetaPositionState {
  const borrowCustody = BORROW_CUSTODY === 'collateral' ? collateralCustody : custody;
  const delta = cumulativeInterestAt(borrowCustody, nowSec) - p.cumulativeInterestSnapshot;
  const borrowing = delta > 0n ? (delta * p.sizeUsd) / RATE_POWER : 0n;
  return { sizeMicros: p.sizeUsd, collateralMicros: p.collateralUsd, borrowingMicros: borrowing, liquidationPrice: betaLiquidationPrice(p, custody, borrowing) };
}

/**
 * Liquidation when loss + close fee + borrow fee exceeds collateral − size / max leverage
 * (protocols.md). Close fee = size × (decrease bps + ceil(size × 1e4 / impact scalar)) / 1e4; the
 * price distance from entry is |max loss − collateral| × entry / size, below entry for a long
 * whose max loss is under its collateral and above it otherwise (mirrored for shorts).
 */
export function betaLiquidationPrice(p: BetaPositionAccount, custody: BetaCustodyAccount, borrowing: bigint): number | null {
  if (p.sizeUsd === 0n || custody.maxLeverageBps === 0n) return null;
  const impactBps = custody.tradeImpactFeeScalar === 0n ? 0n : divCeil(p.sizeUsd * BPS_POWER, custody.tradeImpactFeeScalar);
  const closeFee = (p.sizeUsd * (custody.decreasePositionBps + impactBps)) / BPS_POWER;
  const maxLoss = (p.sizeUsd * BPS_POWER) / custody.maxLeverageBps + closeFee + borrowing;
  const over = maxLoss > p.collateralUsd;
  const gap = over ? maxLoss - p.collateralUsd : p.collateralUsd - maxLoss;
  const diff = (gap * p.price) / p.sizeUsd;
  const below = p.isLong !== over; // long with room: below entry; short with room: above
  const price = below ? p.price - diff : p.price + diff;
  return price > 0n ? Number(price) / 1e6 : null;
}
