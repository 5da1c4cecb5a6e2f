import type { MinMax } from '../alpha-events.ts';
/**
 * Fixed-point helpers for the programs' integers: alpha's 20-decimal factors and USD values,
 * beta's 6-decimal USD and 1e9 rates. Conversions to JS numbers happen last, through exact
 * integer micro-dollars (journal USD has 6 decimals) or a correctly rounded division.
 */

/** alpha's unit: 1e20 = 1.0 (MARKET_DECIMALS = 20). */
export const UNIT = 10n ** 20n;

/** alpha `apply_factor`: value × factor / 1e20 (rounded down). */
export const applyFactor = (value: bigint, factor: bigint): bigint => (value * factor) / UNIT;

/** alpha `div_to_factor` (round down): value × 1e20 / divisor. */
export const divToFactor = (value: bigint, divisor: bigint): bigint => (value * UNIT) / divisor;

/**
 * alpha `apply_exponent_factor`: value^exponent in units of 1e20. Exact for exponent 1.0 (the
 * usual setting); any other exponent is computed in doubles, good to ~1e-15 relative.
 */
export function applyExponent(value: bigint, exponent: bigint): bigint {
  if (exponent === UNIT) return value;
  const v = Number(value) / 1e20;
  return BigInt(Math.floor(Math.pow(v, Number(exponent) / 1e20) * 1e20));
}

/** A 20-decimal factor → a plain number (fraction). */
export const factorToNumber = (raw: bigint): number => Number(raw) / 1e20;

/** Mid of an oracle pair. */
export const mid = (p: MinMax): bigint => (p.min + p.max) / 2n;
