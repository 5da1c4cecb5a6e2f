/**
 * DuckDB's cast of a wide DECIMAL to DOUBLE, bit for bit, for in-memory sets that must answer
 * exactly as a `sum(decimal)::DOUBLE` in SQL would (`GET /v1/alpha/funding-rates/history`'s funding rates).
 *
 * DuckDB 1.5 does not round the exact decimal to the nearest double. For a DECIMAL stored as a
 * 128-bit integer (width > 18) it casts the unscaled value `v` with scale `s` as:
 * - `double(v) / 10^s` when |v| <= 2^53 (the integer converts exactly);
 * - else `double(v / 10^s) + double(v % 10^s) / 10^s`, quotient and remainder truncated toward
 *   zero, each converted on its own;
 * where `double(h)` of a 128-bit integer is `double(lower) + double(upper) * 2^64` from its
 * two's-complement halves, except for `upper == -1`: `-double(2^64 - 1 - lower) - 1`.
 * (src/function/cast/decimal_cast.cpp TryCastDecimalToFloatingPoint, src/common/types/hugeint.cpp
 * CastBigintToFloating.) test/db/decimal-double.test.ts compares this with DuckDB on boundary and
 * random values.
 */

const TWO_53 = 2n ** 53n;
const TWO_64 = 2n ** 64n;
const LOWER_MASK = TWO_64 - 1n;

/** DuckDB's conversion of a 128-bit integer to DOUBLE (two roundings, see the file comment). */
export function hugeintToDouble(v: bigint): number {
  const upper = v >> 64n; // arithmetic shift: the signed upper half
  const lower = v & LOWER_MASK;
  if (upper === -1n) return -Number(LOWER_MASK - lower) - 1;
  return Number(lower) + Number(upper) * 18446744073709551616;
}

/** DuckDB's cast to DOUBLE of a DECIMAL(width > 18, `scale`) whose unscaled value is `unscaled`. */
export function wideDecimalToDouble(unscaled: bigint, scale: number): number {
  const divisor = 10 ** scale; // exact in a double up to 10^22
  if (unscaled >= -TWO_53 && unscaled <= TWO_53) return Number(unscaled) / divisor;
  const power = 10n ** BigInt(scale);
  // BigInt division and remainder truncate toward zero, as C++'s do
  return hugeintToDouble(unscaled / power) + hugeintToDouble(unscaled % power) / divisor;
}

/**
 * Micro-dollars as the API serves an amount: DuckDB's `round(x, 6)::DOUBLE` of the DECIMAL(38,6) they
 * are ({@link wideDecimalToDouble}; `micros / 1e6` below 2^53). The in-memory answers that must equal a
 * SQL one (`GET /v1/alpha/open-interest/history`, `GET /v1/alpha/accounts/stats`,
 * `GET /v1/alpha/open-positions/search` and `GET /v1/alpha/open-positions/stats`) serve their exact
 * sums through it.
 */
export function servedUsd(micros: bigint): number {
  return wideDecimalToDouble(micros, 6);
}

/**
 * The unscaled value of a decimal as DuckDB prints it (`-12.3400`, `0.5`, `7`) at `scale`
 * fraction digits. Throws on anything else, or on more fraction digits than `scale`.
 */
export function unscaledOf(text: string, scale: number): bigint {
  const match = /^(-?)(\d+)(?:\.(\d*))?$/.exec(text);
  if (!match || (match[3] ?? '').length > scale) throw new Error(`not a decimal of scale ${scale}: ${text}`);
  const value = BigInt(match[2]! + (match[3] ?? '').padEnd(scale, '0'));
  return match[1] ? -value : value;
}
