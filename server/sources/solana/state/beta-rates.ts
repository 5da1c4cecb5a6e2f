/**
 * beta (Jupiter Perpetuals) borrow rates from a Custody account, as Jupiter's published client
 * computes them (julianfssen/jupiter-perps-anchor-idl-parsing, get-borrow-fee-and-funding-rate.ts,
 * summarised in shared/design/solana/accounts.md §3): utilisation = locked / owned, both with the
 * custody's outstanding borrow-lend debt added; the linear model when `hourly_funding_dbps` is
 * set, else the jump model on yearly bps. Rates are RATE_POWER (1e9) integers per hour.
 */
import type { BetaCustodyAccount } from '../accounts/beta-custody.ts';

export const RATE_POWER = 1_000_000_000n;
const BPS_POWER = 10_000n;
const DBPS_POWER = 100_000n;
const DEBT_POWER = 1_000_000_000n;
const HOURS_PER_YEAR = 8760n;

const divCeil = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;
const max0 = (x: bigint): bigint => (x > 0n ? x : 0n);

/** The custody's outstanding debt in token units (rounded up). */
function debtTokens(c: BetaCustodyAccount): bigint {
  return divCeil(max0(c.debt - c.borrowLendInterestsAccrued), DEBT_POWER);
}

/** locked / owned × 1e9, both with the debt added (0 when either is 0). */
export function utilization(c: BetaCustodyAccount): bigint {
  const debt = debtTokens(c);
  const owned = c.owned + debt;
  const locked = c.locked + debt;
  return owned > 0n && locked > 0n ? (locked * RATE_POWER) / owned : 0n;
}

/** Hourly borrow rate × 1e9 (fraction of size per hour). */
export function hourlyBorrowRate(c: BetaCustodyAccount): bigint {
  const debt = debtTokens(c);
  const owned = c.owned + debt;
  const locked = c.locked + debt;
  if (!(owned > 0n && locked > 0n)) return 0n;
  if (c.hourlyFundingDbps !== 0n) {
    const hourly = (c.hourlyFundingDbps * RATE_POWER) / DBPS_POWER;
    return divCeil(locked * hourly, owned);
  }
  const { minRateBps, maxRateBps, targetRateBps, targetUtilizationRate } = c.jumpRate;
  const util = (locked * RATE_POWER) / owned;
  let yearly: bigint;
  if (util <= targetUtilizationRate) {
    const slope = targetUtilizationRate === 0n ? 0n : divCeil((targetRateBps - minRateBps) * util, targetUtilizationRate);
    yearly = ((slope + minRateBps) * RATE_POWER) / BPS_POWER;
  } else {
    const denom = max0(RATE_POWER - targetUtilizationRate);
    const extra = denom === 0n ? 0n : divCeil(max0(maxRateBps - targetRateBps) * max0(util - targetUtilizationRate), denom);
    yearly = ((extra + targetRateBps) * RATE_POWER) / BPS_POWER;
  }
  return yearly / HOURS_PER_YEAR;
}

/**
 * The cumulative interest index at `nowSec`: the stored one plus the hourly rate accrued since its
 * last update (× 1e9; borrow fee USD = Δ × size / 1e9).
 */
export function cumulativeInterestAt(c: BetaCustodyAccount, nowSec: number): bigint {
  const dt = BigInt(Math.max(0, Math.floor(nowSec - c.lastUpdate)));
  return c.cumulativeInterestRate + (hourlyBorrowRate(c) * dt) / 3600n;
}
