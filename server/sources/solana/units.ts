/**
 * Fixed-point conversions for on-chain integers. Journal USD amounts have 6 decimals, so every
 * USD value is first brought to integer micro-dollars (exact BigInt arithmetic, rounded half
 * away from zero) and only then to a JS number: sums and chains stay exact.
 */
import { divRound } from '../../db/exact-ratio.ts';


/** A USD value with `decimals` decimals → integer micro-dollars. */
export function usdMicros(raw: bigint, decimals: number): bigint {
  if (decimals === 6) return raw;
  if (decimals > 6) return divRound(raw, 10n ** BigInt(decimals - 6));
  return raw * 10n ** BigInt(6 - decimals);
}

/** integer micro-dollars → the journal's USD number */
export function microsToUsd(micros: bigint): number {
  const n = Number(micros) / 1e6;
  return n === 0 ? 0 : n;
}

/** alpha: a price per smallest token unit × 1e20 → USD per whole token. */
export function alphaPrice(raw: bigint, tokenDecimals: number): number {
  return (Number(raw) * 10 ** tokenDecimals) / 1e20;
}

/** alpha: a token amount (smallest units) valued at a unit price (× 1e20) → micro-dollars. */
export function tokenValueMicros(amount: bigint, unitPrice: bigint): bigint {
  return divRound(amount * unitPrice, 10n ** 14n);
}

/** Mid of an oracle min/max pair. */
export function mid(p: { min: bigint; max: bigint }): bigint {
  return (p.min + p.max) / 2n;
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
