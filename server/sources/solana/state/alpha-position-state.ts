/**
 * An alpha position's state now, from its Position account and its Market account: unsettled
 * borrowing, unsettled funding and claimable funding from the cumulative factors (accounts.md
 * §1f), plus what accrued since the market's last borrowing / funding update at the rates in
 * force, and the liquidation price from protocols.md's condition.
 */
import { claimableFundingAmountPerSize, cumulativeBorrowingFactor, fundingAmountPerSize, openInterest, type AlphaMarketAccount } from '../accounts/alpha-market.ts';
import type { AlphaPositionAccount } from '../accounts/alpha-position.ts';
import type { AlphaHourlyRates } from './alpha-rates.ts';
import { ALPHA_USD_DECIMALS } from '../layout.ts';
import { usdMicros, tokenValueMicros } from '../units.ts';
import { applyFactor, mid, UNIT } from './fixed.ts';
import type { AlphaPrices } from '../alpha-events.ts';

/** FUNDING_AMOUNT_PER_SIZE_ADJUSTMENT (10^10) × MARKET_USD_UNIT (10^20): unpacks a funding amount per size. */
const FUNDING_UNPACK = 10n ** 10n * UNIT;

const max0 = (x: bigint): bigint => (x > 0n ? x : 0n);
const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;

export interface AlphaPositionState {
  sizeMicros: bigint;
  collateralMicros: bigint;
  borrowingMicros: bigint;
  fundingMicros: bigint;
  claimableMicros: bigint;
  /** USD per whole index token, or null when price alone cannot trigger liquidation */
  liquidationPrice: number | null;
}

/**
 * The liquidation threshold factor. UNCONFIRMED: markets of releases before v0.8.0 have no
 * `min_collateral_factor_for_liquidation` (the bytes are zero); the general min collateral
 * factor is used for them, which is what GMX v2 itself uses for liquidation.
 */
export function liquidationFactor(m: AlphaMarketAccount): bigint {
  return m.config.minCollateralFactorForLiquidation !== 0n ? m.config.minCollateralFactorForLiquidation : m.config.minCollateralFactor;
}

export function alphaPositionState(p: AlphaPositionAccount, m: AlphaMarketAccount, prices: AlphaPrices, rates: AlphaHourlyRates, nowSec: number, indexDecimals: number): AlphaPositionState {
  const size = p.sizeInUsd;
  const longColl = p.collateralToken === m.longTokenMint;
  const collPrice = mid(longColl ? prices.long : prices.short);

  // borrowing: the stored cumulative factor, advanced to now at the rate in force
  const sinceBorrow = BigInt(Math.max(0, nowSec - m.borrowingClock));
  const cumNow = cumulativeBorrowingFactor(m, p.isLong) + (p.isLong ? rates.borrowingPerSecond.long : rates.borrowingPerSecond.short) * sinceBorrow;
  const borrowing20 = applyFactor(size, max0(cumNow - p.borrowingFactor));

  // funding applied to the market up to its funding clock, in collateral / long / short tokens
  const owedTokens = ceilDiv(size * max0(fundingAmountPerSize(m, p.isLong, longColl) - p.fundingFeeAmountPerSize), FUNDING_UNPACK);
  const claimLong = (size * max0(claimableFundingAmountPerSize(m, p.isLong, true) - p.longTokenClaimableFundingAmountPerSize)) / FUNDING_UNPACK;
  const claimShort = (size * max0(claimableFundingAmountPerSize(m, p.isLong, false) - p.shortTokenClaimableFundingAmountPerSize)) / FUNDING_UNPACK;
  // and since the clock, in USD: payers pay f per $ of size per second, receivers get f × payer OI / receiver OI
  const sinceFunding = BigInt(Math.max(0, nowSec - m.fundingClock));
  const f = rates.funding.perSecond;
  const pays = f > 0n && rates.funding.longsPay === p.isLong;
  const receives = f > 0n && !pays;
  const payerOi = openInterest(m, rates.funding.longsPay);
  const receiverOi = openInterest(m, !rates.funding.longsPay);
  const pendingPaid20 = pays ? applyFactor(size, f * sinceFunding) : 0n;
  const pendingEarned20 = receives && receiverOi > 0n ? (applyFactor(size, f * sinceFunding) * payerOi) / receiverOi : 0n;

  const fundingMicros = tokenValueMicros(owedTokens, collPrice) + usdMicros(pendingPaid20, ALPHA_USD_DECIMALS);
  const claimableMicros = tokenValueMicros(claimLong, mid(prices.long)) + tokenValueMicros(claimShort, mid(prices.short)) + usdMicros(pendingEarned20, ALPHA_USD_DECIMALS);
  const borrowingMicros = usdMicros(borrowing20, ALPHA_USD_DECIMALS);
  const collateralMicros = tokenValueMicros(p.collateralAmount, collPrice);

  return {
    sizeMicros: usdMicros(size, ALPHA_USD_DECIMALS),
    collateralMicros,
    borrowingMicros,
    fundingMicros,
    claimableMicros,
    liquidationPrice: alphaLiquidationPrice(p, m, indexDecimals, longColl, Number(collateralMicros) / 1e6, Number(borrowingMicros + fundingMicros) / 1e6),
  };
}

/**
 * The index price (USD per whole token) at which collateral + PnL − fees falls to
 * max(size × liquidation factor, min collateral value) (protocols.md), where PnL = size in tokens
 * × price − size in USD for a long (reversed for a short) and fees = the close fee at the order
 * fee factor (positive-impact factor when closing improves the long/short balance, else the
 * negative one) + the pending borrowing and funding given. Collateral in the index token itself
 * is revalued with the price; any other collateral is held at its current value. Null when no
 * positive price satisfies it.
 */
export function alphaLiquidationPrice(p: AlphaPositionAccount, m: AlphaMarketAccount, indexDecimals: number, longColl: boolean, collateralUsd: number, pendingUsd: number): number | null {
  const S = Number(p.sizeInUsd) / 1e20;
  const T = Number(p.sizeInTokens) / 10 ** indexDecimals;
  if (S <= 0 || T <= 0) return null;
  const L = Number(openInterest(m, true));
  const Sh = Number(openInterest(m, false));
  const x0 = L - Sh;
  const x1 = x0 - (p.isLong ? 1 : -1) * Number(p.sizeInUsd);
  const feeFactor = Math.abs(x1) < Math.abs(x0) ? m.config.orderFeeFactorForPositiveImpact : m.config.orderFeeFactorForNegativeImpact;
  const F = S * (Number(feeFactor) / 1e20) + pendingUsd;
  const thr = Math.max(S * (Number(liquidationFactor(m)) / 1e20), Number(m.config.minCollateralValue) / 1e20);
  const collIsIndex = (longColl ? m.longTokenMint : m.shortTokenMint) === m.indexTokenMint;
  const q = collIsIndex ? Number(p.collateralAmount) / 10 ** indexDecimals : 0; // tokens whose value moves with P
  const C = collIsIndex ? 0 : collateralUsd;
  let price: number;
  if (p.isLong)
    price = (thr + S + F - C) / (q + T); // C + qP + TP − S − F = thr
  else if (collIsIndex)
    price = T > q ? (S - F - thr) / (T - q) : NaN; // qP + S − TP − F = thr
  else price = (C + S - F - thr) / T; // C + S − TP − F = thr
  return Number.isFinite(price) && price > 0 ? price : null;
}
