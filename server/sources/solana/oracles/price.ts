/** What every oracle decoder returns: a USD price per whole token with the oracle's own timestamp. */
export interface OraclePrice {
  /** USD per whole token */
  usd: number;
  /** the raw integer and its decimal exponent (USD = raw × 10^expo) */
  raw: bigint;
  expo: number;
  /** the oracle's own publish time, unix seconds */
  publishTime: number;
  /** which decoder read it (doves-ag, doves, pyth, gmsol-feed, pyth-legacy) */
  kind: string;
}

/**
 * raw × 10^expo as the nearest double: a division by an exact power of ten (not a multiplication
 * by 10^-n, which is inexact), so 12500000000 × 10^-8 is 125, not 125.00000000000001.
 */
export function scaled(raw: bigint, expo: number): number {
  if (expo >= 0) return Number(raw * 10n ** BigInt(expo));
  if (expo >= -22) return Number(raw) / 10 ** -expo;
  return Number(raw) / 10 ** 22 / 10 ** (-expo - 22);
}
