/**
 * Exact quotients of big integers: rounded once from the integers, so the same sums give the same
 * answer whichever path produced them (`GET /v1/alpha/accounts/stats`'s averages from SQL or in-memory
 * totals; the Solana decoders' fixed-point conversions).
 */

/** Bits of a positive integer. */
function bitLength(n: bigint): number {
  return n.toString(2).length;
}

/**
 * `num / den` (den > 0) rounded to the nearest double, ties to even. The quotient is formed with
 * at least 55 significant bits and a sticky bit for any remainder, so converting it (BigInt →
 * Number rounds to nearest, ties to even) rounds as the exact quotient would; the scaling back is
 * by a power of two, exact for quotients of normal magnitude (above 2^-1022, below 2^1024).
 */
export function nearestDouble(num: bigint, den: bigint): number {
  if (den <= 0n) throw new RangeError('nearestDouble: the denominator must be positive');
  if (num === 0n) return 0;
  const negative = num < 0n;
  const n = negative ? -num : num;
  const shift = 56 - (bitLength(n) - bitLength(den));
  const scaledNum = shift > 0 ? n << BigInt(shift) : n;
  const scaledDen = shift < 0 ? den << BigInt(-shift) : den;
  let q = scaledNum / scaledDen;
  if (scaledNum % scaledDen !== 0n) q |= 1n;
  const out = Number(q) * 2 ** -shift;
  return negative ? -out : out;
}

/** round(n / d) for BigInts (d > 0), halves away from zero (as SQL `round` does). */
export function divRound(n: bigint, d: bigint): bigint {
  const q = n / d;
  const r = n % d;
  if (2n * (r < 0n ? -r : r) >= d) return q + (n < 0n ? -1n : 1n);
  return q;
}
