/**
 * Fixed-point helpers for the programs' integers: alpha's 20-decimal factors and USD values,
 * beta's 6-decimal USD and 1e9 rates. Conversions to JS numbers happen last, through exact
 * integer micro-dollars (journal USD has 6 decimals) or a correctly rounded division.
 */
import { divRound } from '../../../db/exact-ratio.ts';

/** alpha's unit: 1e20 = 1.0 (MARKET_DECIMALS = 20). */
export const UNIT = 10n ** 20n;

/** A min / max oracle price pair (alpha unit prices: USD per smallest token unit × 1e20). */
export interface MinMax {
  min: bigint;
  max: bigint;
}

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

/** A 20-decimal USD value → micro-dollars (half away from zero). */
export const usd20ToMicros = (raw: bigint): bigint => divRound(raw, 10n ** 14n);

/** A token amount (base units) at a unit price (×1e20) → micro-dollars. */
export const tokenMicros = (amount: bigint, unitPrice: bigint): bigint => divRound(amount * unitPrice, 10n ** 14n);

/** Micro-dollars → the journal's USD number (exact to 6 decimals). */
export const microsToUsd = (micros: bigint): number => {
  const n = Number(micros) / 1e6;
  return n === 0 ? 0 : n;
};

/** A 20-decimal factor → a plain number (fraction). */
export const factorToNumber = (raw: bigint): number => Number(raw) / 1e20;

/** Mid of an oracle pair. */
export const mid = (p: MinMax): bigint => (p.min + p.max) / 2n;

/** USD per whole token of a unit price, given the token's decimals (correctly rounded). */
export function unitToUsd(unit: bigint, decimals: number): number {
  return decimals >= 20 ? Number(unit * 10n ** BigInt(decimals - 20)) : Number(unit) / 10 ** (20 - decimals);
}
