/**
 * Exact conversions of on-chain integers. USD amounts become integer micro-dollars (the journal's
 * 6 decimals, rounded half away from zero) in BigInt arithmetic; prices become the decimal string
 * of the exact quotient and only then a JS number, so a price of exactly 125 is 125, not
 * 124.99999999999999 (the nearest double to the exact value, never a product of two roundings).
 */
import { divRound } from '../../db/exact-ratio.ts';

/** A USD value with `decimals` decimals → integer micro-dollars. */
export function usdMicros(raw: bigint, decimals: number): bigint {
  if (decimals === 6) return raw;
  if (decimals > 6) return divRound(raw, 10n ** BigInt(decimals - 6));
  return raw * 10n ** BigInt(6 - decimals);
}

/** integer micro-dollars → the journal's USD number (exact below 2^53 micro-dollars) */
export function microsToUsd(micros: bigint): number {
  const n = Number(micros) / 1e6;
  return n === 0 ? 0 : n;
}

/** `raw / 10^scale` as an exact decimal string (scale may be negative: a multiplication). */
export function decimalString(raw: bigint, scale: number): string {
  if (scale <= 0) return (raw * 10n ** BigInt(-scale)).toString();
  const neg = raw < 0n;
  const digits = (neg ? -raw : raw).toString().padStart(scale + 1, '0');
  const int = digits.slice(0, digits.length - scale);
  const frac = digits.slice(digits.length - scale).replace(/0+$/, '');
  return `${neg ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}

/** `raw / 10^scale` as the nearest JS number. */
export function scaledToNumber(raw: bigint, scale: number): number {
  return Number(decimalString(raw, scale));
}

/** alpha: a price per smallest token unit × 1e20 → USD per whole token (exact, then nearest double). */
export function alphaPrice(raw: bigint, tokenDecimals: number): number {
  return scaledToNumber(raw, 20 - tokenDecimals);
}

/** alpha: a token amount (smallest units) valued at a unit price (× 1e20) → micro-dollars. */
export function tokenValueMicros(amount: bigint, unitPrice: bigint): bigint {
  return divRound(amount * unitPrice, 10n ** 14n);
}

/** alpha: the mid of an oracle min/max pair in USD per whole token (halving a double is exact). */
export function alphaMidPrice(p: { min: bigint; max: bigint }, tokenDecimals: number): number {
  return alphaPrice(p.min + p.max, tokenDecimals) / 2;
}

/** null for zero (the journal's "none settled"), else the USD number. */
export function usdOrNull(micros: bigint): number | null {
  return micros === 0n ? null : microsToUsd(micros);
}

/** Hex of a byte slice (discriminators). */
export function bytesToHex(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}
